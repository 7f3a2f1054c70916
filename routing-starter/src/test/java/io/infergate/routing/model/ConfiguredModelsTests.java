package io.infergate.routing.model;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static io.infergate.routing.model.ModelFixtures.lane;
import static io.infergate.routing.model.ModelFixtures.lanes;
import static io.infergate.routing.model.ModelFixtures.properties;
import static io.infergate.routing.model.ModelFixtures.single;
import static io.infergate.routing.model.ModelFixtures.split;
import static io.infergate.routing.model.ModelFixtures.target;
import static io.infergate.routing.model.ModelFixtures.withFallbacks;
import static org.assertj.core.api.Assertions.assertThat;

class ConfiguredModelsTests {

	private static final Set<String> POOLS = Set.of("llama", "llama-long", "llama-next");

	private static ConfiguredModels check(ModelProperties properties) {
		return new ConfiguredModels(properties, POOLS);
	}

	@Test
	void aValidConfigurationHasNoProblems() {
		ConfiguredModels models = check(properties(
				"chat", withFallbacks(split(StickyBy.USER, target("llama", "a", 90), target("llama-next", "b", 10)),
						"summarize"),
				"summarize", lanes("a", lane(8192, "llama"), lane(null, "llama-long")),
				"support-bot", single("llama", "a", "support-lora")));

		assertThat(models.problems()).isEmpty();
		assertThat(models.get("chat").fallbackOrder()).containsExactly("summarize");
		assertThat(models.get("support-bot").routes()).containsExactly(new ModelRoute("support-bot", "llama", "a",
				"support-lora"));
	}

	@Test
	void reportsEveryProblemAtOnceWithItsPropertyPath() {
		ConfiguredModels models = check(properties(
				"chat", withFallbacks(split(StickyBy.NONE, target("lama", "a", 90), target("llama-next", "b", -1)),
						"chat-large", "chat"),
				"summarize", lanes("a", lane(0, "llama"), lane(null, "llama-longg"))));

		assertThat(models.problems()).containsExactly(
				"infergate.models.chat.targets[0].pool: no pool named 'lama'; configured pools: llama, llama-long, "
						+ "llama-next",
				"infergate.models.chat.targets[1].weight: must be at least 0, got -1",
				"infergate.models.summarize.lanes[0].max-tokens: must be at least 1, got 0",
				"infergate.models.summarize.lanes[1].pool: no pool named 'llama-longg'; configured pools: llama, "
						+ "llama-long, llama-next",
				"infergate.models.chat.fallbacks[0]: no model named 'chat-large'; configured models: chat, summarize",
				"infergate.models.chat.fallbacks[1]: 'chat' cannot fall back to itself");
	}

	@Test
	void aModelNeedsExactlyOneForm() {
		ModelProperties.Model none = new ModelProperties.Model(null, null, null, null, null, null, null, null, null);
		ModelProperties.Model both = new ModelProperties.Model("llama", "a", null, null, List.of(), StickyBy.NONE,
				List.of(), List.of(lane(10, "llama")), null);

		assertThat(check(properties("none", none, "both", both)).problems()).containsExactly(
				"infergate.models.none: no route; give it a pool, targets or lanes",
				"infergate.models.both: pool and lanes are alternatives; give exactly one of pool, targets or lanes");
	}

	@Test
	void aModelLevelTargetModelIsNotUsedWithTargets() {
		ModelProperties.Model chat = new ModelProperties.Model(null, "b", null, null, List.of(target("llama", "a", 1)),
				StickyBy.NONE, List.of(), List.of(), null);

		assertThat(check(properties("chat", chat)).problems())
			.containsExactly("infergate.models.chat.target-model: not used with targets; give each target its own");
	}

	@Test
	void weightsMustNotAllBeZero() {
		assertThat(check(properties("chat", split(StickyBy.NONE, target("llama", "a", 0), target("llama", "b", 0))))
			.problems()).containsExactly(
					"infergate.models.chat.targets: every weight is 0; at least one target needs a positive weight");
	}

	@Test
	void aLaneAfterOneThatTakesEverythingIsUnreachable() {
		assertThat(check(properties("summarize", lanes("a", lane(null, "llama"), lane(100, "llama-long"),
				lane(8192, "llama"), lane(4096, "llama-long")))).problems()).containsExactly(
						"infergate.models.summarize.lanes[1]: unreachable; lanes[0] before it takes any request",
						"infergate.models.summarize.lanes[2]: unreachable; lanes[0] before it takes any request",
						"infergate.models.summarize.lanes[3]: unreachable; lanes[0] before it takes any request");
		assertThat(check(properties("summarize", lanes("a", lane(8192, "llama"), lane(4096, "llama-long"))))
			.problems()).containsExactly("infergate.models.summarize.lanes[1]: unreachable; lanes[0] before it takes "
					+ "every request of up to 8192 tokens");
	}

	@Test
	void anAdapterMustBeAName() {
		assertThat(check(properties("bot", single("llama", "a", "support lora"), "plain", single("llama", "a", " ")))
			.problems()).containsExactly("infergate.models.bot.adapter: must be an adapter name without whitespace or "
					+ "control characters, got 'support lora'");
		assertThat(check(properties("plain", single("llama", "a", " "))).get("plain").routes().get(0).adapter())
			.isNull();
	}

	@Test
	void aLoopOfFallbacksIsReportedOnce() {
		assertThat(check(properties(
				"a", withFallbacks(single("llama", "x", null), "b"),
				"b", withFallbacks(single("llama", "x", null), "c"),
				"c", withFallbacks(single("llama", "x", null), "a"))).problems())
			.containsExactly("infergate.models.a.fallbacks: a loop of fallbacks, a → b → c → a");
	}

	@Test
	void theFallbackOrderFollowsEachFallbacksOwnFallbacksDepthFirstOnce() {
		ConfiguredModels models = check(properties(
				"chat", withFallbacks(single("llama", "x", null), "large", "small"),
				"large", withFallbacks(single("llama", "x", null), "xl", "small"),
				"xl", single("llama", "x", null),
				"small", single("llama", "x", null)));

		assertThat(models.get("chat").fallbackOrder()).containsExactly("large", "xl", "small");
		assertThat(models.get("large").fallbackOrder()).containsExactly("xl", "small");
	}
}
