package io.infergate.sim.http;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.infergate.sim.engine.ChatPrompt;
import io.infergate.simtokenizer.StandInChatTemplate;
import io.infergate.tokenizers.TokenizerException;
import tools.jackson.databind.JsonNode;

/**
 * The chat prompt of a request body. The messages' roles and texts are read, and checked, at once; the JSON a
 * model's chat template needs ({@code messages}, {@code tools}, {@code chat_template_kwargs},
 * {@code add_generation_prompt}, {@code add_special_tokens}) only when an encoder asks for it, so the stand-in
 * never reads it. A malformed field is a {@link TokenizerException} naming it.
 */
final class RequestChatPrompt implements ChatPrompt {

	private final List<StandInChatTemplate.Message> messages;

	private final Supplier<List<?>> jsonMessages;

	private final Supplier<List<?>> tools;

	private final JsonNode root;

	private final boolean addGenerationPromptByDefault;

	RequestChatPrompt(List<StandInChatTemplate.Message> messages, Supplier<List<?>> jsonMessages, Supplier<List<?>> tools,
			JsonNode root, boolean addGenerationPromptByDefault) {
		this.messages = messages;
		this.jsonMessages = jsonMessages;
		this.tools = tools;
		this.root = root;
		this.addGenerationPromptByDefault = addGenerationPromptByDefault;
	}

	/**
	 * The prompt of a body whose {@code field} holds chat messages in OpenAI's format.
	 * @param addGenerationPromptByDefault vLLM's default for the endpoint: true for chat completions and
	 * {@code /tokenize}, false for embeddings
	 */
	static RequestChatPrompt read(JsonNode root, String field, boolean addGenerationPromptByDefault)
			throws OpenAiError {
		JsonNode node = root.get(field);
		List<StandInChatTemplate.Message> messages = ChatMessages.read(node, field);
		return new RequestChatPrompt(messages, () -> (List<?>) plain(node), () -> list(root, "tools"), root,
				addGenerationPromptByDefault);
	}

	@Override
	public List<StandInChatTemplate.Message> messages() {
		return this.messages;
	}

	@Override
	public List<?> jsonMessages() {
		return this.jsonMessages.get();
	}

	@Override
	public List<?> tools() {
		return this.tools.get();
	}

	@Override
	public Map<String, ?> templateArguments() {
		JsonNode arguments = this.root.get("chat_template_kwargs");
		if (arguments == null || arguments.isNull()) {
			return Map.of();
		}
		if (!arguments.isObject()) {
			throw new TokenizerException("'chat_template_kwargs' must be an object.");
		}
		@SuppressWarnings("unchecked")
		Map<String, ?> map = (Map<String, ?>) plain(arguments);
		return map;
	}

	@Override
	public boolean addGenerationPrompt() {
		return flag("add_generation_prompt", this.addGenerationPromptByDefault);
	}

	@Override
	public boolean addSpecialTokens() {
		return flag("add_special_tokens", false);
	}

	private boolean flag(String field, boolean defaultValue) {
		JsonNode value = this.root.get(field);
		if (value == null || value.isNull()) {
			return defaultValue;
		}
		if (!value.isBoolean()) {
			throw new TokenizerException("'" + field + "' must be a boolean.");
		}
		return value.booleanValue();
	}

	/** The array {@code field} of {@code root} as parsed JSON, or {@code null} when absent. */
	static List<?> list(JsonNode root, String field) {
		JsonNode value = root.get(field);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isArray()) {
			throw new TokenizerException("'" + field + "' must be an array.");
		}
		return (List<?>) plain(value);
	}

	/** A JSON tree as maps, lists, strings, numbers, booleans and nulls. */
	static Object plain(JsonNode node) {
		return Json.MAPPER.treeToValue(node, Object.class);
	}
}
