package io.infergate.gateway.demo;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.InfergateGatewayApplication;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.metrics.MetricsScrapers;
import io.infergate.routing.pool.EndpointRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@ExtendWith(OutputCaptureExtension.class)
class DemoModeShutdownTests {

	@Test
	void stoppedDemoPodsLeaveThePoolInsteadOfBeingReportedDead(CapturedOutput output) {
		try (ConfigurableApplicationContext gateway = new SpringApplicationBuilder(InfergateGatewayApplication.class)
			.run("--server.port=0", "--management.server.port=0")) {
			EndpointRegistry registry = gateway.getBean(EndpointRegistry.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> registry.pool(DemoModeEnvironmentPostProcessor.POOL).endpoints().size() == 4
						&& registry.pool(DemoModeEnvironmentPostProcessor.POOL)
							.endpoints()
							.stream()
							.allMatch(Endpoint::isReady));
			List<String> ports = Arrays
				.asList(gateway.getEnvironment().getProperty(DemoModeEnvironmentPostProcessor.PORTS_PROPERTY).split(","));
			List<EndpointId> pods = registry.pool(DemoModeEnvironmentPostProcessor.POOL)
				.endpoints()
				.stream()
				.map(Endpoint::id)
				.toList();
			MetricsScrapers scrapers = gateway.getBean(MetricsScrapers.class);

			gateway.stop();
			assertThat(registry.pool(DemoModeEnvironmentPostProcessor.POOL).endpoints()).isEmpty();
			// the scrapers live until the context is closed: once none scrapes a demo pod, none can report one dead
			await().atMost(Duration.ofSeconds(10))
				.until(() -> pods.stream()
					.noneMatch((pod) -> scrapers.isTracked(DemoModeEnvironmentPostProcessor.POOL, pod)));

			// other test classes' cached contexts may report their own pods, so only the demo pods' ports count
			assertThat(output.getAll().lines().filter((line) -> line.contains("failed scrapes")))
				.noneMatch((line) -> ports.stream().anyMatch((port) -> line.contains(":" + port)));
			assertThat(output).contains("Pool 'demo': endpoint 127.0.0.1:" + ports.get(0) + " removed");
		}
	}
}
