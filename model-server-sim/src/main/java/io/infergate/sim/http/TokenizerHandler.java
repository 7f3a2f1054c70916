package io.infergate.sim.http;

import java.io.IOException;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.infergate.sim.engine.ChatTemplate;
import io.infergate.sim.engine.Tokenizer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * vLLM's {@code POST /tokenize} and {@code POST /detokenize}, which use the tokenizer only, never the engine.
 * {@code /tokenize} takes a {@code prompt} or chat {@code messages} (rendered with the chat template) and answers
 * {@code count}, {@code max_model_len} and {@code tokens}. The simulator's tokens are hashes of 4 characters and
 * cannot be turned back into text, so {@code /detokenize} answers filler text of one word per token.
 */
public final class TokenizerHandler implements HttpHandler {

	private final boolean tokenize;

	private final String path;

	private final ServedModel models;

	private final int maxModelLen;

	public TokenizerHandler(boolean tokenize, String baseModel, List<String> adapters, int maxModelLen) {
		this.tokenize = tokenize;
		this.path = tokenize ? "/tokenize" : "/detokenize";
		this.models = new ServedModel(baseModel, adapters);
		this.maxModelLen = maxModelLen;
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
		String text;
		if (prompt != null && prompt.isString()) {
			text = prompt.stringValue();
		}
		else if (messages != null && !messages.isNull()) {
			text = ChatTemplate.render(ChatMessages.read(messages, "messages"));
		}
		else {
			throw OpenAiError.badRequest("'prompt' (a string) or 'messages' is required.", "prompt");
		}
		int[] tokens = Tokenizer.encode(text);
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

	private static String detokenize(JsonNode root) throws OpenAiError {
		JsonNode tokens = root.get("tokens");
		if (tokens == null || !tokens.isArray()) {
			throw OpenAiError.badRequest("'tokens' is required and must be an array of token ids.", "tokens");
		}
		for (JsonNode token : tokens.values()) {
			if (!token.isIntegralNumber()) {
				throw OpenAiError.badRequest("'tokens' must hold token ids.", "tokens");
			}
		}
		ObjectNode response = Json.MAPPER.createObjectNode();
		response.put("prompt", FillerText.of(tokens.size()));
		return response.toString();
	}
}
