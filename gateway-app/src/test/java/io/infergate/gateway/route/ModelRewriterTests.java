package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.OpenAiRequestParser;
import io.infergate.routing.openai.ParsedRequest;

import static org.assertj.core.api.Assertions.assertThat;

class ModelRewriterTests {

	@Test
	void replacesOnlyTheModelValue() throws Exception {
		String json = "{\"model\" : \"gpt-4o-mini\",\"prompt\":\"keep \\\"model\\\": this\"}";
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		ParsedRequest parsed = new OpenAiRequestParser().parse(body, InferenceApi.COMPLETIONS);

		byte[] rewritten = ModelRewriter.rewrite(body, parsed, "meta-llama/Llama-3.1-8B-Instruct");

		assertThat(new String(rewritten, StandardCharsets.UTF_8))
			.isEqualTo("{\"model\" : \"meta-llama/Llama-3.1-8B-Instruct\",\"prompt\":\"keep \\\"model\\\": this\"}");
	}

	@Test
	void escapesTheNewModelName() throws Exception {
		byte[] body = "{\"model\":\"m\",\"prompt\":\"p\"}".getBytes(StandardCharsets.UTF_8);
		ParsedRequest parsed = new OpenAiRequestParser().parse(body, InferenceApi.COMPLETIONS);

		byte[] rewritten = ModelRewriter.rewrite(body, parsed, "a\"b");

		assertThat(new String(rewritten, StandardCharsets.UTF_8)).isEqualTo("{\"model\":\"a\\\"b\",\"prompt\":\"p\"}");
	}

	@Test
	void leavesTheBodyAloneWhenTheModelIsUnchanged() throws Exception {
		byte[] body = "{\"model\":\"m\",\"prompt\":\"p\"}".getBytes(StandardCharsets.UTF_8);
		ParsedRequest parsed = new OpenAiRequestParser().parse(body, InferenceApi.COMPLETIONS);

		assertThat(ModelRewriter.rewrite(body, parsed, "m")).isSameAs(body);
	}
}
