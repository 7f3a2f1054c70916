package io.infergate.gateway.warmup;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import io.infergate.gateway.InfergateGatewayApplication;
import io.infergate.gateway.support.Http;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@ExtendWith(OutputCaptureExtension.class)
class RequestPathWarmupTests {

	@Test
	void aRunSendsEveryKindOfRequestThroughAThrowawayGatewayAndClosesIt() {
		WarmupRun.Result result = new WarmupRun(Duration.ofSeconds(2), 4, false).run();

		assertThat(result.failed()).as(String.valueOf(result.firstFailure())).isZero();
		// request i is of kind i mod 8 (streams, the adapter's, the base model's): the first 8 send every kind
		assertThat(result.requests()).isGreaterThanOrEqualTo(8);
		// the load lasts the duration asked for; that the run returned at all shows it then stopped
		assertThat(result.loadMillis()).isGreaterThanOrEqualTo(2000L);
		assertThat(Thread.getAllStackTraces().keySet()).noneMatch(
				(thread) -> thread.isAlive() && thread.getName().startsWith("infergate-warmup-pod"));
		assertThat(Metrics.globalRegistry.getMeters()).noneMatch(RequestPathWarmupTests::namesTheWarmup);
	}

	@Test
	void withApiKeysOnTheRequestsCarryAKeyTheThrowawayGatewayAccepts() {
		WarmupRun.Result result = new WarmupRun(Duration.ofSeconds(1), 4, true).run();

		assertThat(result.failed()).as(String.valueOf(result.firstFailure())).isZero();
		assertThat(result.requests()).isPositive();
	}

	@Test
	void theApplicationStartsAfterTheWarmupAndKeepsNothingOfIt(CapturedOutput output) {
		SpringApplication application = new SpringApplication(InfergateGatewayApplication.class);
		application.addListeners(new RequestPathWarmup());
		try (ConfigurableApplicationContext gateway = application.run("--server.port=0",
				"--management.server.port=0", "--infergate.warmup.duration=2s")) {
			assertThat(output).containsOnlyOnce("Warm-up: ").contains(" requests (0 failed) in ");
			// the throwaway context announced no password of its own and none of its start-up
			assertThat(output).doesNotContain("generated password").containsOnlyOnce(": Started ");

			EndpointRegistry registry = gateway.getBean(EndpointRegistry.class);
			assertThat(registry.pools()).extracting(EndpointPool::name).containsExactly("demo");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> registry.pool("demo").endpoints().stream().allMatch(Endpoint::isReady));
			String port = gateway.getEnvironment().getProperty("local.server.port");
			String models = Http.get("http://127.0.0.1:" + port + "/v1/models").body();
			assertThat(models).contains("demo-llama").doesNotContain(WarmupRun.BASE_MODEL);
			assertThat(Http.postJson("http://127.0.0.1:" + port + "/v1/chat/completions",
					Http.chat("demo-llama", "hello", false, 4)).statusCode()).isEqualTo(200);
			assertThat(gateway.getBean(MeterRegistry.class).getMeters())
				.noneMatch(RequestPathWarmupTests::namesTheWarmup);
		}
	}

	@Test
	void noDurationMeansNoWarmup(CapturedOutput output) {
		new RequestPathWarmup().onApplicationEvent(prepared(Map.of()));
		new RequestPathWarmup().onApplicationEvent(prepared(Map.of(RequestPathWarmup.DURATION_PROPERTY, "0s")));

		assertThat(output).doesNotContain("Warm-up");
	}

	@Test
	void aWarmupThatCannotRunIsSkippedInOneLine(CapturedOutput output) {
		new RequestPathWarmup().onApplicationEvent(prepared(Map.of(RequestPathWarmup.DURATION_PROPERTY, "5s",
				RequestPathWarmup.CONCURRENCY_PROPERTY, "0")));

		assertThat(output).containsOnlyOnce("Warm-up skipped: infergate.warmup.concurrency must be at least 1, was 0");
	}

	private static ApplicationEnvironmentPreparedEvent prepared(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		return new ApplicationEnvironmentPreparedEvent(new DefaultBootstrapContext(), new SpringApplication(),
				new String[0], environment);
	}

	private static boolean namesTheWarmup(Meter meter) {
		List<Tag> tags = meter.getId().getTags();
		return tags.stream()
			.anyMatch((tag) -> tag.getValue().equals(WarmupRun.POOL) || tag.getValue().startsWith("warmup-"));
	}

	@Test
	void aThrowawayContextThatDoesNotCloseInTimeIsLeftClosingAndSaidSo(CapturedOutput output) throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		GenericApplicationContext stuck = new GenericApplicationContext();
		stuck.registerBean("stuck", DisposableBean.class,
				() -> () -> release.await());
		stuck.refresh();
		long start = System.nanoTime();

		boolean closed = WarmupRun.close(stuck, Duration.ofMillis(300));

		assertThat(closed).isFalse();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		assertThat(output).contains("The warm-up's throwaway gateway did not close within 300 ms; the application "
				+ "starts without waiting for it");
		release.countDown();
		await().atMost(Duration.ofSeconds(5)).until(() -> !stuck.isActive());
		GenericApplicationContext quick = new GenericApplicationContext();
		quick.refresh();
		assertThat(WarmupRun.close(quick, Duration.ofSeconds(5))).isTrue();
		assertThat(quick.isActive()).isFalse();
	}
}
