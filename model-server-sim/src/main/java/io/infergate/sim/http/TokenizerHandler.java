package io.infergate.sim.http;

import java.io.IOException;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.infergate.sim.engine.PromptEncoder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * vLLM's {@code POST /tokenize} and {@code POST /detokenize}, which use the tokenizer only, never the engine.
 * {@code /tokenize} takes a {@code prompt} or chat {@code messages} (rendered with the chat template) and answers
 * {@code count}, {@code max_model_len} and {@code tokens}; as in vLLM, {@code add_special_tokens} defaults to true
 * for a prompt and false for messages, and messages also take {@code add_generation_prompt} (default true),
 * {@code tools} and {@code chat_template_kwargs} (the stand-in tokenizer has no special tokens and ignores these).
 * {@code /detokenize} answers the text of the tokens; the stand-in's tokens are hashes of 4 characters and cannot be
 * turned back into text, so it answers filler text of one word per token.
 */
public final class TokenizerHandler implements HttpHandler {

	private final boolean tokenize;

	private final String path;

	private final ServedModel models;

	private final int maxModelLen;

	private final RequestEncoder encoder;

	public TokenizerHandler(boolean tokenize, String baseModel, List<String> adapters, int maxModelLen,
			PromptEncoder encoder) {
		this.tokenize = tokenize;
		this.path = tokenize ? "/tokenize" : "/detokenize";
		this.models = new ServedModel(baseModel, adapters);
		this.maxModelLen = maxModelLen;
		this.encoder = new RequestEncoder(encoder);
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		byte[] body = HttpResponses.postBody(exchange, this.path);
		if (body == null) {
			return;
		}
		try {
			JsonNode root = Json.readObject(body);
			this.models.adapterOf(this.models.name(root));
			HttpResponses.sendJson(exchange, 200, this.tokenize ? tokenize(root) : detokenize(root));
		}
		catch (OpenAiError error) {
			HttpResponses.sendError(exchange, error);
		}
	}

	private String tokenize(JsonNode root) throws OpenAiError {
		JsonNode prompt = root.get("prompt");
		JsonNode messages = root.get("messages");
		int[] tokens;
		if (prompt != null && prompt.isString()) {
			tokens = this.encoder.text(prompt.stringValue(), addSpecialTokens(root));
		}
		else if (messages != null && !messages.isNull()) {
			tokens = this.encoder.chat(RequestChatPrompt.read(root, "messages", true));
		}
		else {
			throw OpenAiError.badRequest("'prompt' (a string) or 'messages' is required.", "prompt");
		}
		ObjectNode response = Json.MAPPER.createObjectNode();
		response.put("count", tokens.length);
		response.put("max_model_len", this.maxModelLen);
		ArrayNode ids = response.putArray("tokens");
		for (int token : tokens) {
			ids.add(token);
		}
		response.putNull("token_strs");
		return response.toString();
	}

	/** A prompt's {@code add_special_tokens}: true when absent, as in vLLM. */
	private static boolean addSpecialTokens(JsonNode root) throws OpenAiError {
		JsonNode value = root.get("add_special_tokens");
		if (value == null || value.isNull()) {
			return true;
		}
		if (!value.isBoolean()) {
			throw OpenAiError.badRequest("'add_special_tokens' must be a boolean.", "add_special_tokens");
		}
		return value.booleanValue();
	}

	private String detokenize(JsonNode root) throws OpenAiError {
		JsonNode tokens = root.get("tokens");
		if (tokens == null || !tokens.isArray()) {
			throw OpenAiError.badRequest("'tokens' is required and must be an array of token ids.", "tokens");
		}
		int[] ids = new int[tokens.size()];
		for (int i = 0; i < ids.length; i++) {
			JsonNode token = tokens.get(i);
			if (!token.isIntegralNumber()) {
				throw OpenAiError.badRequest("'tokens' must hold token ids.", "tokens");
			}
			ids[i] = token.canConvertToInt() ? token.intValue() : -1;
		}
		String text = this.encoder.decode(ids);
		ObjectNode response = Json.MAPPER.createObjectNode();
		response.put("prompt", (text != null) ? text : FillerText.of(ids.length));
		return response.toString();
	}
}
