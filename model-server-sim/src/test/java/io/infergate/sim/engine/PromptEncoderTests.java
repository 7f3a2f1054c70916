package io.infergate.sim.engine;

import java.util.List;
import java.util.Map;

import io.infergate.sim.TestTokenizers;
import io.infergate.simtokenizer.StandInChatTemplate;
import io.infergate.simtokenizer.StandInTokenizer;
import io.infergate.tokenizers.ModelTokenizer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The stand-in encodes as the simulator always has; a model's encoder as its tokenizer and template do. */
class PromptEncoderTests {

	private static final List<StandInChatTemplate.Message> MESSAGES = List.of(
			new StandInChatTemplate.Message("system", "Be brief."),
			new StandInChatTemplate.Message("user", "Hello world"));

	@Test
	void theStandInIsTheFourCharacterTokenizerAndTheSimulatorsTemplate() {
		PromptEncoder standIn = PromptEncoder.standIn();

		assertThat(standIn.encodeChat(ChatPrompt.of(MESSAGES)))
			.containsExactly(StandInTokenizer.encode(StandInChatTemplate.render(MESSAGES)));
		assertThat(standIn.encodePrompt("Hello world")).containsExactly(StandInTokenizer.encode("Hello world"));
		assertThat(standIn.encode("Hello world", true)).containsExactly(StandInTokenizer.encode("Hello world"));
		assertThat(standIn.decode(new int[] { 1, 2 })).isNull();
		assertThat(standIn.tokenizerFile()).isNull();
	}

	@Test
	void aModelsEncoderRendersItsTemplateAndHonoursTheFlags() {
		ModelTokenizer tokenizer = TestTokenizers.load(TestTokenizers.llama31());
		PromptEncoder encoder = PromptEncoder.of(tokenizer);
		List<Map<String, Object>> json = List.of(Map.of("role", "system", "content", "Be brief."),
				Map.of("role", "user", "content", "Hello world"));

		assertThat(encoder.encodeChat(ChatPrompt.of(MESSAGES)))
			.containsExactly(tokenizer.encodeChat(json, null, Map.of()));
		assertThat(encoder.encodeChat(new Flags(MESSAGES, json, false, true))).containsExactly(
				tokenizer.encode(tokenizer.renderChat(json, null, Map.of(), false), true));
		assertThat(encoder.encodePrompt("Hello world")).containsExactly(128000, 9906, 1917);
		assertThat(encoder.encode("Hello world", false)).containsExactly(9906, 1917);
		assertThat(encoder.decode(new int[] { 9906, 1917 })).isEqualTo("Hello world");
		assertThat(encoder.tokenizerFile()).isEqualTo(tokenizer.file());
	}

	@Test
	void aVirtualTimeEngineLooksUpPromptTextsWithItsEncoder() {
		PromptEncoder encoder = PromptEncoder.of(TestTokenizers.load(TestTokenizers.qwen3()));
		VirtualTimeEngine engine = new VirtualTimeEngine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).build(),
				EngineEventListener.NONE, 0, KvEventSink.NONE, encoder);
		String prompt = "The same long prompt, sent twice, shares its full blocks of sixteen tokens. ".repeat(4);

		engine.submit(0, new EngineRequest(encoder.encodePrompt(prompt), null, 1));
		engine.runUntilIdle();

		assertThat(engine.cachedPrefixTokens(prompt, null)).isEqualTo((encoder.encodePrompt(prompt).length - 1) / 16 * 16)
			.isPositive();
	}

	private record Flags(List<StandInChatTemplate.Message> messages, List<?> jsonMessages, boolean addGenerationPrompt,
			boolean addSpecialTokens) implements ChatPrompt {

		@Override
		public List<?> tools() {
			return null;
		}

		@Override
		public Map<String, ?> templateArguments() {
			return Map.of();
		}
	}
}
