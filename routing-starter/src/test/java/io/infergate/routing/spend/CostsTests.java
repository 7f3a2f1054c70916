package io.infergate.routing.spend;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.model.ConfiguredModels;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.model.ServedModelRoutes;
import io.infergate.routing.model.StickyBy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** A request's cost from its usage and its model's price, and prices as the configuration binds them. */
class CostsTests {

	private final ApplicationContextRunner binding = new ApplicationContextRunner()
		.withUserConfiguration(Bound.class)
		.withPropertyValues("infergate.models.m.pool=p");

	@Test
	void uncachedCachedAndOutputTokensEachCostTheirPricePerMillion() {
		Price price = new Price(2.0, 0.5, 8.0);

		assertThat(price.cost(1_000, 400, 100)).isCloseTo((600 * 2.0 + 400 * 0.5 + 100 * 8.0) / 1e6, within(1e-15));
		assertThat(price.cost(1_000_000, 0, 0)).isCloseTo(2.0, within(1e-12));
	}

	@Test
	void cachedTokensCostTheInputPriceWithoutACachedPriceAndAPriceNotGivenIsZero() {
		assertThat(new Price(2.0, null, null).cost(1_000, 400, 100)).isCloseTo(1_000 * 2.0 / 1e6, within(1e-15));
		assertThat(new Price(null, null, 8.0).cost(1_000, 400, 100)).isCloseTo(100 * 8.0 / 1e6, within(1e-15));
	}

	@Test
	void moreCachedTokensThanPromptTokensAreCountedAsThePrompt() {
		assertThat(new Price(2.0, 0.0, 0.0).cost(10, 50, 0)).isZero();
	}

	@Test
	void aModelWithoutAPriceOrARequestWithoutUsageCostsNothing() {
		Costs costs = costs(Map.of("priced", model(new Price(1.0, null, 1.0)), "free", model(null)));
		TokenUsage usage = new TokenUsage(1_000, 1_000, true, 0);

		assertThat(costs.cost("priced", usage)).isCloseTo(0.002, within(1e-15));
		assertThat(costs.cost("free", usage)).isZero();
		assertThat(costs.cost("served-by-name-only", usage)).isZero();
		assertThat(costs.cost("priced", null)).isZero();
		assertThat(costs.cost(null, usage)).isZero();
		assertThat(costs.unpriced()).containsExactly("free");
		assertThat(costs.priced("priced")).isTrue();
		assertThat(costs.currency()).isEqualTo("USD");
	}

	@Test
	void bindsAPricePerMillionTokensAndTheCurrency() {
		binding
			.withPropertyValues("infergate.models.m.price.input=0.15", "infergate.models.m.price.cached-input=0.075",
					"infergate.models.m.price.output=0.6", "infergate.usage.currency=EUR")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ModelProperties.class).models().get("m").price())
					.isEqualTo(new Price(0.15, 0.075, 0.6));
				assertThat(context.getBean(UsageProperties.class).currency()).isEqualTo("EUR");
			});
		binding.run((context) -> {
			assertThat(context.getBean(ModelProperties.class).models().get("m").price()).isNull();
			assertThat(context.getBean(UsageProperties.class).currency()).isEqualTo("USD");
		});
	}

	@Test
	void aNegativeOrNonNumericPriceFailsStartupNamingTheProperty() {
		binding.withPropertyValues("infergate.models.m.price.input=-0.1").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure())).contains("models[m].price.input")
				.contains("must be greater than or equal to 0");
		});
		binding.withPropertyValues("infergate.models.m.price.output=cheap").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure())).contains("infergate.models.m.price.output");
		});
	}

	private static String messages(Throwable failure) {
		StringBuilder text = new StringBuilder();
		for (Throwable t = failure; t != null; t = t.getCause()) {
			text.append(t.getMessage()).append('\n');
		}
		return text.toString();
	}

	private static ModelProperties.Model model(Price price) {
		return new ModelProperties.Model("p", null, null, null, List.of(), StickyBy.NONE, List.of(), List.of(), price);
	}

	private static Costs costs(Map<String, ModelProperties.Model> models) {
		ModelProperties properties = new ModelProperties(new LinkedHashMap<>(models));
		ModelCatalog catalog = new ModelCatalog(new ConfiguredModels(properties, Set.of("p")), ServedModelRoutes.NONE);
		return new Costs(catalog, "USD");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties({ ModelProperties.class, UsageProperties.class })
	static class Bound {

	}
}
