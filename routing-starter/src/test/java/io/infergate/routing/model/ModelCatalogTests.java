package io.infergate.routing.model;

import org.junit.jupiter.api.Test;

import io.infergate.routing.config.InvalidConfigurationException;

import static io.infergate.routing.model.ModelFixtures.catalog;
import static io.infergate.routing.model.ModelFixtures.lane;
import static io.infergate.routing.model.ModelFixtures.lanes;
import static io.infergate.routing.model.ModelFixtures.properties;
import static io.infergate.routing.model.ModelFixtures.single;
import static io.infergate.routing.model.ModelFixtures.split;
import static io.infergate.routing.model.ModelFixtures.target;
import static io.infergate.routing.model.ModelFixtures.withFallbacks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ModelCatalogTests {

	private final ModelCatalog catalog = catalog(properties(
			"chat", withFallbacks(split(StickyBy.USER, target("llama", "a", 9), target("llama-next", "b", 1)),
					"summarize"),
			"summarize", lanes("a", lane(8192, "llama"), lane(null, "llama-long"))),
			"llama", "llama-next", "llama-long");

	@Test
	void aRequestTriesTheModelThenItsFallbacks() {
		assertThat(catalog.attemptOrder("chat")).containsExactly("chat", "summarize");
		assertThat(catalog.attemptOrder("summarize")).containsExactly("summarize");
		assertThat(catalog.attemptOrder("served-only")).containsExactly("served-only");
	}

	@Test
	void listsEachConfiguredModelWithThePoolsItMayGoTo() {
		assertThat(catalog.listModels()).containsOnlyKeys("chat", "summarize");
		assertThat(catalog.listing("chat").pools()).containsExactly("llama", "llama-next");
		assertThat(catalog.listing("chat").fallbacks()).containsExactly("summarize");
		assertThat(catalog.listing("summarize").pools()).containsExactly("llama", "llama-long");
		assertThat(catalog.listing("nothing")).isNull();
	}

	@Test
	void suggestsConfiguredNamesForATypo() {
		assertThat(catalog.suggestionsFor("summarise")).containsExactly("summarize");
	}

	@Test
	void refusesConfigurationWithProblems() {
		assertThatExceptionOfType(InvalidConfigurationException.class)
			.isThrownBy(() -> catalog(properties("chat", single("lama", "a", null)), "llama"))
			.withMessageContaining("infergate.models.chat.pool: no pool named 'lama'");
	}
}
