package io.infergate.routing.redis;

import java.net.URI;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/** Which Redis the gateway uses when {@code infergate.redis.url} or a deprecated Redis URL is set. */
@ExtendWith(OutputCaptureExtension.class)
class DeprecatedRedisUrlTests {

	static final String WARNING = " is deprecated: use infergate.redis.url";

	@Test
	void withoutAnyUrlTheRedisIsLocalAndNothingIsLogged(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run()) {
			assertThat(url(context)).isEqualTo(URI.create("redis://127.0.0.1:6379"));
		}
		assertThat(output).doesNotContain(WARNING);
	}

	@Test
	void theRedisUrlIsUsedWithoutWarning(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run("--infergate.redis.url=redis://redis-a:6380")) {
			assertThat(url(context)).isEqualTo(URI.create("redis://redis-a:6380"));
		}
		assertThat(output).doesNotContain(WARNING);
	}

	@Test
	void theDeprecatedLimitsUrlStillWorksAndWarnsOnce(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run("--infergate.rate-limits.redis-url=redis://redis-b:6381")) {
			assertThat(url(context)).isEqualTo(URI.create("redis://redis-b:6381"));
		}
		assertThat(output.getOut().split("infergate.rate-limits.redis-url" + WARNING, -1)).hasSize(2);
	}

	@Test
	void theDeprecatedDispatchSharingUrlStillWorksAndWarns(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run(
				"--infergate.scheduling.dispatch-sharing.redis-url=redis://redis-c:6382")) {
			assertThat(url(context)).isEqualTo(URI.create("redis://redis-c:6382"));
		}
		assertThat(output).contains("infergate.scheduling.dispatch-sharing.redis-url" + WARNING);
	}

	@Test
	void theRedisUrlWinsOverADeprecatedOne(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run("--infergate.redis.url=redis://redis-a:6380",
				"--infergate.rate-limits.redis-url=redis://redis-b:6381")) {
			assertThat(url(context)).isEqualTo(URI.create("redis://redis-a:6380"));
		}
		assertThat(output).contains("infergate.rate-limits.redis-url" + WARNING + " (set too, so "
				+ "infergate.rate-limits.redis-url is ignored)");
	}

	@Test
	void twoDeprecatedUrlsNamingDifferentServersStopStartup() {
		assertThatException()
			.isThrownBy(() -> run("--infergate.rate-limits.redis-url=redis://redis-b:6381",
					"--infergate.scheduling.dispatch-sharing.redis-url=redis://redis-c:6382"))
			.withStackTraceContaining("infergate.rate-limits.redis-url and infergate.scheduling.dispatch-sharing.redis-url "
					+ "name different Redis servers, but the gateway uses one: set infergate.redis.url");
	}

	@Test
	void aUrlThatIsNoRedisUrlStopsStartupNamingTheProperty() {
		assertThatException().isThrownBy(() -> run("--infergate.redis.url=http://redis-a:6380"))
			.withStackTraceContaining("infergate.redis.url: not a Redis URL such as redis://127.0.0.1:6379");
	}

	private static URI url(ConfigurableApplicationContext context) {
		return context.getBean(RedisUrl.class).uri();
	}

	private static ConfigurableApplicationContext run(String... args) {
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE).run(args);
	}

	@SpringBootConfiguration
	@ImportAutoConfiguration(RedisAutoConfiguration.class)
	static class Application {

	}
}
