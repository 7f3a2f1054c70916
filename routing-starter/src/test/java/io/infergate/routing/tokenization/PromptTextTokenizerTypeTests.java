package io.infergate.routing.tokenization;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.openai.PromptTokens;
import io.infergate.simtokenizer.SimulatorPromptTokenizer;
import io.infergate.simtokenizer.StandInTokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** A tokenizer type over the gateway's prompt text, as the gateway application registers the simulator's. */
class PromptTextTokenizerTypeTests {

	private final PromptTextTokenizerType type = new PromptTextTokenizerType(SimulatorPromptTokenizer.TYPE,
			SimulatorPromptTokenizer::encode);

	@Test
	void theRequestTokenizerGivesTheWholePromptsIds() throws InvalidRequestException {
		String prompt = "\u001esystem\u001fBe brief.\u001euser\u001fHello there";
		RequestTokenizer tokenizer = type.create(new TokenizerSettings(null, null, "simulator", null, null));

		PromptTokens tokens = tokenizer.tokenize(new ParsedRequest("m", 0, 0, false, null, prompt, 1, null, null));

		int[] expected = StandInTokenizer.encode("<|system|>\nBe brief.\n<|user|>\nHello there\n<|assistant|>\n");
		assertThat(tokens.ids()).containsExactly(expected);
		assertThat(tokens.count()).isEqualTo(expected.length);
		assertThat(tokenizer.describe()).isEqualTo("simulator");
		assertThat(type.name()).isEqualTo("simulator");
	}

	@Test
	void aRequestWithoutPromptTextKeepsTheEstimate() throws InvalidRequestException {
		RequestTokenizer tokenizer = type.create(new TokenizerSettings(null, null, "simulator", null, null));

		assertThat(tokenizer.tokenize(new ParsedRequest("m", 0, 0, false, null, "", 1, null, null))).isNull();
	}

	@Test
	void itTakesNoFiles() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> type.create(new TokenizerSettings("/models/x", null, "simulator", DataSize.ofBytes(0), null)))
			.withMessage("path: the simulator tokenizer takes no files");
	}
}
