package io.infergate.routing.openai;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.infergate.tokenizers.ModelTokenizer;
import io.infergate.tokenizers.TokenizerException;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * vLLM's {@code POST /tokenize} and {@code POST /detokenize}, answered with the model's tokenizer for a pool whose
 * engine has no such endpoints (TensorRT-LLM's servers), with vLLM's fields and defaults:
 * <ul>
 * <li>{@code /tokenize} with {@code prompt} (a string; {@code add_special_tokens}, default true) or {@code messages}
 * (rendered through the chat template; {@code add_generation_prompt}, default true; {@code add_special_tokens},
 * default false; {@code tools}; {@code chat_template_kwargs}) answers {@code count}, {@code max_model_len}
 * ({@code null}: the gateway does not know the engine's), {@code tokens} and {@code token_strs} (the tokens' strings
 * as the vocabulary writes them when {@code return_token_strs} is true, else {@code null});</li>
 * <li>{@code /detokenize} with {@code tokens} (token ids) answers {@code prompt}, their text, special tokens kept.
 * </li>
 * </ul>
 * {@code continue_final_message} is refused (400): the gateway's template rendering always closes the last message.
 */
public final class TokenizerEndpoints {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private TokenizerEndpoints() {
	}

	/**
	 * The response body of {@code api} ({@link InferenceApi#TOKENIZE} or {@link InferenceApi#DETOKENIZE}) for
	 * {@code body}.
	 *
	 * @throws InvalidRequestException when the body is not such a request, or its input cannot be tokenized
	 */
	public static String answer(InferenceApi api, byte[] body, ModelTokenizer tokenizer)
			throws InvalidRequestException {
		Map<?, ?> request;
		try {
			request = JSON.readValue(body, Map.class);
		}
		catch (JacksonException ex) {
			throw InvalidRequestException.malformed("The request body is not valid JSON.");
		}
		try {
			return switch (api) {
				case TOKENIZE -> tokenize(request, tokenizer);
				case DETOKENIZE -> detokenize(request, tokenizer);
				default -> throw new IllegalArgumentException(api + " is not a tokenizer endpoint");
			};
		}
		catch (TokenizerException ex) {
			String field = (api == InferenceApi.DETOKENIZE) ? "tokens"
					: (request.get("prompt") != null) ? "prompt" : "messages";
			throw InvalidRequestException.field(field, "The `" + field + "` cannot be tokenized for this model: "
					+ ex.getMessage());
		}
	}

	private static String tokenize(Map<?, ?> request, ModelTokenizer tokenizer) throws InvalidRequestException {
		Object prompt = request.get("prompt");
		Object messages = request.get("messages");
		String text;
		boolean addSpecialTokens;
		if (prompt != null) {
			if (!(prompt instanceof String string)) {
				throw InvalidRequestException.field("prompt", "`prompt` must be a string.");
			}
			text = string;
			addSpecialTokens = flag(request, "add_special_tokens", true);
		}
		else if (messages != null) {
			if (!(messages instanceof List<?> list)) {
				throw InvalidRequestException.field("messages", "`messages` must be an array.");
			}
			if (flag(request, "continue_final_message", false)) {
				throw InvalidRequestException.field("continue_final_message", "`continue_final_message` is not "
						+ "supported when the gateway tokenizes for the model's engine.");
			}
			text = tokenizer.renderChat(list, PromptSource.tools(request), PromptSource.templateArguments(request),
					flag(request, "add_generation_prompt", true));
			addSpecialTokens = flag(request, "add_special_tokens", false);
		}
		else {
			throw InvalidRequestException.field("prompt", "`prompt` (a string) or `messages` is required.");
		}
		int[] tokens = addSpecialTokens ? tokenizer.encode(text, true) : tokenizer.encodeRendered(text);
		Map<String, Object> response = new LinkedHashMap<>();
		response.put("count", tokens.length);
		response.put("max_model_len", null);
		response.put("tokens", tokens);
		response.put("token_strs", flag(request, "return_token_strs", false)
				? List.of(tokenizer.tokenStrings(text, addSpecialTokens)) : null);
		return JSON.writeValueAsString(response);
	}

	private static String detokenize(Map<?, ?> request, ModelTokenizer tokenizer) throws InvalidRequestException {
		if (!(request.get("tokens") instanceof List<?> given)) {
			throw InvalidRequestException.field("tokens", "`tokens` (an array of token ids) is required.");
		}
		List<Integer> ids = new ArrayList<>(given.size());
		for (Object id : given) {
			if (!(id instanceof Integer value) || value < 0) {
				throw InvalidRequestException.field("tokens", "`tokens` must be an array of token ids.");
			}
			ids.add(value);
		}
		return JSON.writeValueAsString(Map.of("prompt",
				tokenizer.decode(ids.stream().mapToInt(Integer::intValue).toArray())));
	}

	private static boolean flag(Map<?, ?> request, String name, boolean otherwise) throws InvalidRequestException {
		Object value = request.get(name);
		if (value == null) {
			return otherwise;
		}
		if (!(value instanceof Boolean flag)) {
			throw InvalidRequestException.field(name, "`" + name + "` must be a boolean.");
		}
		return flag;
	}
}
