package io.infergate.routing.prefix;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.picker.ChwblPicker;
import io.infergate.routing.scheduling.scorer.EstimatedTtftScorer;
import io.infergate.routing.scheduling.scorer.PrefixCacheScorer;
import io.infergate.routing.scheduling.scorer.SessionAffinityScorer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.infergate.routing.prefix.PrefixFixtures.prompt;
import static io.infergate.routing.prefix.PrefixFixtures.request;
import static io.infergate.routing.scheduling.Fixtures.cycle;
import static org.assertj.core.api.Assertions.assertThat;

/** The index and the prefix plugins as the scheduling auto-configuration registers and binds them. */
class PrefixIndexConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SchedulingAutoConfiguration.class))
		.withPropertyValues("infergate.scheduling.profiles.default.picker=max-score");

	@Test
	void thePluginsThatReadTheIndexShareOne() {
		runner.run((context) -> {
			assertThat(context).hasSingleBean(PrefixIndex.class);
			PrefixIndex index = context.getBean(PrefixIndex.class);
			Endpoint endpoint = endpoint("http://10.0.0.1:8001");

			((PrefixCacheScorer) scorer(context, "prefix-cache")).onDispatch(cycle(request(prompt("p", 3))), endpoint);
			((EstimatedTtftScorer) scorer(context, "estimated-ttft")).onDispatch(cycle(request(prompt("q", 2))),
					endpoint);

			assertThat(index.stats().blocksPerEndpoint()).containsEntry("10.0.0.1:8001", 5);
			assertThat(index.properties()).isEqualTo(PrefixIndexProperties.defaults());
		});
	}

	@Test
	void bindsTheIndexAndPluginParameters() {
		runner
			.withPropertyValues("infergate.scheduling.prefix.block-size-chars=32",
					"infergate.scheduling.prefix.max-blocks=128",
					"infergate.scheduling.prefix.lru-capacity-per-endpoint=1000",
					"infergate.scheduling.plugins.estimated-ttft.base-micros=1000",
					"infergate.scheduling.plugins.estimated-ttft.prefill-micros-per-token=40",
					"infergate.scheduling.plugins.estimated-ttft.in-flight-request-micros=250",
					"infergate.scheduling.plugins.session-affinity.ttl=5m",
					"infergate.scheduling.plugins.session-affinity.max-sessions=10",
					"infergate.scheduling.plugins.chwbl.mean-load-factor=1.5",
					"infergate.scheduling.plugins.chwbl.replication=64",
					"infergate.scheduling.plugins.chwbl.prefix-char-length=200")
			.run((context) -> {
				assertThat(context.getBean(PrefixIndex.class).properties())
					.isEqualTo(new PrefixIndexProperties(32, 128, 1000));
				assertThat(((EstimatedTtftScorer) scorer(context, "estimated-ttft")).parameters())
					.isEqualTo(new EstimatedTtftScorer.Parameters(1000, 40, 250));
				assertThat(((SessionAffinityScorer) scorer(context, "session-affinity")).parameters())
					.isEqualTo(new SessionAffinityScorer.Parameters(Duration.ofMinutes(5), 10));
				assertThat(chwbl(context).parameters()).isEqualTo(new ChwblPicker.Parameters(1.5, 64, 200));
			});
	}

	@Test
	void defaultsAreTheDocumentedOnes() {
		runner.run((context) -> {
			assertThat(((EstimatedTtftScorer) scorer(context, "estimated-ttft")).parameters())
				.isEqualTo(EstimatedTtftScorer.Parameters.defaults());
			assertThat(((SessionAffinityScorer) scorer(context, "session-affinity")).parameters())
				.isEqualTo(SessionAffinityScorer.Parameters.defaults());
			assertThat(chwbl(context).parameters()).isEqualTo(ChwblPicker.Parameters.defaults());
		});
	}

	@Test
	void anInvalidValueFailsStartupNamingTheProperty() {
		runner
			.withPropertyValues("infergate.scheduling.prefix.block-size-chars=0")
			.run((context) -> {
				assertThat(context).hasFailed();
				String failure = stackMessages(context.getStartupFailure());
				assertThat(failure).contains("infergate.scheduling.prefix").contains("blockSizeChars");
			});
		runner.withPropertyValues("infergate.scheduling.plugins.chwbl.mean-load-factor=0.5").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(stackMessages(context.getStartupFailure()))
				.contains("infergate.scheduling.plugins.chwbl.mean-load-factor: must be greater than or equal to 1.0, "
						+ "got 0.5 (picker 'chwbl')");
		});
	}

	@Test
	void anEndpointRemovedFromItsPoolIsPurged() {
		runner.withUserConfiguration(RegistryConfiguration.class).run((context) -> {
			EndpointRegistry registry = context.getBean(EndpointRegistry.class);
			registry.sync("llama", List.of(URI.create("http://10.0.0.1:8001"), URI.create("http://10.0.0.1:8002")));
			PrefixIndex index = context.getBean(PrefixIndex.class);
			for (Endpoint endpoint : registry.pool("llama").endpoints()) {
				index.onDispatch(cycle(request(prompt("p", 2))), endpoint);
			}

			registry.sync("llama", List.of(URI.create("http://10.0.0.1:8002")));

			assertThat(index.stats().blocksPerEndpoint()).containsOnlyKeys("10.0.0.1:8002");
		});
	}

	private static EndpointScorer scorer(ApplicationContext context, String name) {
		return context.getBean(SchedulingProfiles.class).plugins(EndpointScorer.class).get(name);
	}

	private static ChwblPicker chwbl(ApplicationContext context) {
		return (ChwblPicker) context.getBean(SchedulingProfiles.class).plugins(EndpointPicker.class).get("chwbl");
	}

	private static Endpoint endpoint(String uri) {
		return new Endpoint("llama", URI.create(uri));
	}

	private static String stackMessages(Throwable failure) {
		StringBuilder messages = new StringBuilder();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			messages.append(cause.getMessage()).append('\n');
		}
		return messages.toString();
	}

	@Configuration(proxyBeanMethods = false)
	static class RegistryConfiguration {

		@Bean
		EndpointRegistry endpointRegistry() {
			PoolProperties.Pool pool = PoolProperties.Pool.of(List.of(URI.create("http://10.0.0.1:8001")), null);
			return new EndpointRegistry(Map.of("llama", pool));
		}
	}
}
