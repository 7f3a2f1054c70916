package io.infergate.sim.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.infergate.sim.engine.EngineEventListener;
import io.infergate.sim.engine.EngineRequest;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.sim.engine.WallClockEngine;
import io.infergate.sim.fault.FaultInjector;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v1/chat/completions} and {@code POST /v1/completions} in OpenAI's format. The prompt is rendered
 * (chat template) and tokenized by the server's {@link PromptEncoder}, the request runs on the engine, and the reply
 * is deterministic filler text of exactly {@code max_completion_tokens} / {@code max_tokens} tokens (default 16),
 * finishing with {@code length}. vLLM's integer {@code priority} (default 0) goes to the engine, which orders by it
 * under the priority scheduling policy and otherwise refuses any but 0. Streaming replies are server-sent events, one
 * chunk per token, flushed as the engine produces them.
 */
public final class GenerationHandler implements HttpHandler {

	/** Output tokens when the request sets no limit; small, so that load stays predictable. */
	public static final int DEFAULT_MAX_TOKENS = 16;

	/** The listener the engine serving these handlers must be built with: it wakes the waiting HTTP threads. */
	public static final EngineEventListener ENGINE_LISTENER = GenerationProgress.LISTENER;

	private final boolean chat;

	private final String path;

	private final ServedModel models;

	private final WallClockEngine engine;

	private final FaultInjector faults;

	private final TraceHeaders traceHeaders;

	private final RequestEncoder encoder;

	public GenerationHandler(boolean chat, String baseModel, WallClockEngine engine, PromptEncoder encoder,
			FaultInjector faults, TraceHeaders traceHeaders) {
		this.chat = chat;
		this.path = chat ? "/v1/chat/completions" : "/v1/completions";
		this.models = new ServedModel(baseModel, engine.config().loraModules());
		this.engine = engine;
		this.faults = faults;
		this.traceHeaders = traceHeaders;
		this.encoder = new RequestEncoder(encoder);
	}

	private record Generation(String model, String adapter, int[] promptTokens, int maxTokens, int priority,
			String cacheSalt, boolean stream, boolean includeUsage, String requestId) {
	}

	/** As vLLM does, a client's request id becomes the response's id: {@code chatcmpl-<id>}. */
	static final String REQUEST_ID_HEADER = "X-Request-Id";

	/**
	 * Initializes the JSON parser on the calling thread. Building it takes about half a second in a cold JVM, which
	 * a server pays in the background at start rather than in its first request.
	 */
	public static void warmUpParser() {
		Json.warmUp();
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		byte[] body = HttpResponses.postBody(exchange, this.path);
		if (body != null) {
			this.traceHeaders.record(exchange.getRequestHeaders().getFirst(TraceHeaders.TRACEPARENT));
		}
		if (body == null || HttpResponses.answeredByFault(exchange, this.faults)) {
			return;
		}
		Generation generation;
		EngineRequest request;
		GenerationProgress progress;
		try {
			generation = parse(body, exchange.getRequestHeaders().getFirst(REQUEST_ID_HEADER));
			delay(this.faults.generationDelayMillis());
			progress = new GenerationProgress(generation.stream());
			request = new EngineRequest(generation.promptTokens(), generation.adapter(), generation.maxTokens(),
					generation.priority(), generation.cacheSalt(), progress);
			this.engine.submit(request);
		}
		catch (OpenAiError error) {
			HttpResponses.sendError(exchange, error);
			return;
		}
		catch (IllegalArgumentException rejected) {
			HttpResponses.sendError(exchange, OpenAiError.badRequest(rejected.getMessage(), null));
			return;
		}
		try {
			if (generation.stream()) {
				stream(exchange, generation, request, progress);
			}
			else {
				progress.awaitFinished();
				HttpResponses.sendJson(exchange, 200, completeResponse(generation, request));
			}
		}
		catch (InterruptedException ex) {
			// The server is closing.
			this.engine.abort(request);
			Thread.currentThread().interrupt();
			throw new InterruptedIOException("simulator closing");
		}
		catch (IOException ex) {
			// The client went away; free the engine's resources as vLLM does on disconnect.
			this.engine.abort(request);
			throw ex;
		}
	}

	private static void delay(long millis) throws InterruptedIOException {
		if (millis <= 0) {
			return;
		}
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new InterruptedIOException("simulator closing");
		}
	}

	private void stream(HttpExchange exchange, Generation generation, EngineRequest request,
			GenerationProgress progress) throws IOException, InterruptedException {
		exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
		exchange.getResponseHeaders().set("Cache-Control", "no-cache");
		exchange.sendResponseHeaders(200, 0);
		OutputStream out = exchange.getResponseBody();
		ChunkPrefix chunk = new ChunkPrefix(this.chat, generation.model(), generation.requestId());
		int abortAfterChunks = this.faults.abortStreamsAfterChunks();
		int stallAfterChunks = this.faults.stallStreamsAfterChunks();
		int sent = 0;
		while (sent < generation.maxTokens()) {
			int produced = progress.awaitTokensBeyond(sent);
			for (; sent < produced; sent++) {
				if (sent == stallAfterChunks) {
					out.flush();
					this.faults.awaitStreamRelease();
				}
				if (sent == abortAfterChunks) {
					out.flush();
					this.engine.abort(request);
					// Leaving without closing the exchange makes the server drop the connection mid-body.
					throw new IOException("stream aborted by injected fault after " + sent + " chunks");
				}
				if (sent == 0 && this.chat) {
					writeEvent(out, chunk.roleChunk());
				}
				String finishReason = (sent + 1 == generation.maxTokens()) ? "\"length\"" : "null";
				writeEvent(out, chunk.tokenChunk(FillerText.token(sent), finishReason));
			}
			out.flush();
		}
		if (generation.includeUsage()) {
			writeEvent(out, chunk.usageChunk(usage(request)));
		}
		out.write("data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII));
		out.close();
		exchange.close();
	}

	private static void writeEvent(OutputStream out, String json) throws IOException {
		out.write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
	}

	/** The parts of a stream chunk every event repeats: id, object, created, model. */
	private static final class ChunkPrefix {

		private final boolean chat;

		private final String prefix;

		ChunkPrefix(boolean chat, String model, String requestId) {
			this.chat = chat;
			this.prefix = "{\"id\":\"" + newId(chat, requestId) + "\",\"object\":\""
					+ (chat ? "chat.completion.chunk" : "text_completion") + "\",\"created\":" + epochSeconds()
					+ ",\"model\":" + JsonText.quote(model) + ",\"choices\":";
		}

		String roleChunk() {
			return this.prefix
					+ "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}";
		}

		String tokenChunk(String text, String finishReason) {
			if (this.chat) {
				return this.prefix + "[{\"index\":0,\"delta\":{\"content\":" + JsonText.quote(text)
						+ "},\"logprobs\":null,\"finish_reason\":" + finishReason + "}]}";
			}
			return this.prefix + "[{\"index\":0,\"text\":" + JsonText.quote(text) + ",\"logprobs\":null,\"finish_reason\":"
					+ finishReason + "}]}";
		}

		String usageChunk(String usage) {
			return this.prefix + "[],\"usage\":" + usage + "}";
		}
	}

	private String completeResponse(Generation generation, EngineRequest request) {
		String text = JsonText.quote(FillerText.of(request.numOutputTokens()));
		String choice = this.chat
				? "{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":" + text
						+ "},\"logprobs\":null,\"finish_reason\":\"length\"}"
				: "{\"index\":0,\"text\":" + text + ",\"logprobs\":null,\"finish_reason\":\"length\"}";
		return "{\"id\":\"" + newId(this.chat, generation.requestId()) + "\",\"object\":\"" + (this.chat ? "chat.completion" : "text_completion")
				+ "\",\"created\":" + epochSeconds() + ",\"model\":" + JsonText.quote(generation.model()) + ",\"choices\":["
				+ choice + "],\"usage\":" + usage(request) + "}";
	}

	private static String usage(EngineRequest request) {
		int prompt = request.numPromptTokens();
		int completion = request.numOutputTokens();
		return "{\"prompt_tokens\":" + prompt + ",\"completion_tokens\":" + completion + ",\"total_tokens\":"
				+ (prompt + completion) + ",\"prompt_tokens_details\":{\"cached_tokens\":"
				+ Math.max(0, request.cachedPromptTokens()) + "}}";
	}

	private static String newId(boolean chat, String requestId) {
		String id = (requestId != null && requestId.matches("[A-Za-z0-9._-]{1,128}")) ? requestId
				: Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
		return (chat ? "chatcmpl-" : "cmpl-") + id;
	}

	private static long epochSeconds() {
		return System.currentTimeMillis() / 1000;
	}

	private Generation parse(byte[] body, String requestId) throws OpenAiError {
		JsonNode root = Json.readObject(body);
		String model = this.models.name(root);
		String adapter = this.models.adapterOf(model);
		int[] promptTokens = this.chat ? this.encoder.chat(RequestChatPrompt.read(root, "messages", true))
				: prompt(root);
		int maxTokens = maxTokens(root);
		int priority = priority(root);
		String cacheSalt = cacheSalt(root);
		boolean stream = booleanField(root, "stream");
		boolean includeUsage = false;
		JsonNode streamOptions = root.get("stream_options");
		if (streamOptions != null && streamOptions.isObject()) {
			includeUsage = booleanField(streamOptions, "include_usage");
		}
		String reason = this.engine.rejectionReason(promptTokens.length, maxTokens, adapter);
		if (reason != null) {
			throw OpenAiError.badRequest(reason, this.chat ? "messages" : "prompt");
		}
		// What is left is the engine's own check of the priority, a ValueError in vLLM: 400 without a param.
		reason = this.engine.rejectionReason(promptTokens.length, maxTokens, adapter, priority);
		if (reason != null) {
			throw OpenAiError.badRequest(reason, null);
		}
		return new Generation(model, adapter, promptTokens, maxTokens, priority, cacheSalt, stream, includeUsage,
				requestId);
	}

	/** A string, an array of token ids (taken as they are), or an array holding one string. */
	private int[] prompt(JsonNode root) throws OpenAiError {
		JsonNode prompt = root.get("prompt");
		if (prompt == null || prompt.isNull()) {
			throw OpenAiError.badRequest("'prompt' is required.", "prompt");
		}
		if (prompt.isString()) {
			return this.encoder.prompt(prompt.stringValue());
		}
		if (prompt.isArray() && prompt.size() == 1 && prompt.get(0).isString()) {
			return this.encoder.prompt(prompt.get(0).stringValue());
		}
		if (prompt.isArray() && !prompt.isEmpty()) {
			int[] tokens = new int[prompt.size()];
			for (int i = 0; i < tokens.length; i++) {
				JsonNode token = prompt.get(i);
				if (!token.isIntegralNumber() || !token.canConvertToInt()) {
					throw OpenAiError.badRequest(
							"'prompt' must be a string, an array of token ids, or an array of one string.", "prompt");
				}
				tokens[i] = token.intValue();
			}
			return tokens;
		}
		throw OpenAiError.badRequest("'prompt' must be a string, an array of token ids, or an array of one string.",
				"prompt");
	}

	private int maxTokens(JsonNode root) throws OpenAiError {
		String field = "max_tokens";
		JsonNode node = root.get(field);
		JsonNode completionTokens = this.chat ? root.get("max_completion_tokens") : null;
		if (completionTokens != null && !completionTokens.isNull()) {
			field = "max_completion_tokens";
			node = completionTokens;
		}
		if (node == null || node.isNull()) {
			return DEFAULT_MAX_TOKENS;
		}
		if (!node.isIntegralNumber() || !node.canConvertToInt()) {
			throw OpenAiError.badRequest("'" + field + "' must be an integer.", field);
		}
		int maxTokens = node.intValue();
		if (maxTokens < 1) {
			throw OpenAiError.badRequest("'" + field + "' must be at least 1, got " + maxTokens + ".", field);
		}
		return maxTokens;
	}

	/** vLLM's {@code priority}: an integer, 0 when absent; as in vLLM, a word, a fraction or null is a 400. */
	private static int priority(JsonNode root) throws OpenAiError {
		JsonNode node = root.get("priority");
		if (node == null) {
			return 0;
		}
		if (!node.isIntegralNumber() || !node.canConvertToInt()) {
			throw OpenAiError.badRequest("'priority' must be an integer.", "priority");
		}
		return node.intValue();
	}

	/** vLLM's {@code cache_salt}: absent or null, or a non-empty string (anything else is a 400, as in vLLM). */
	private static String cacheSalt(JsonNode root) throws OpenAiError {
		JsonNode node = root.get("cache_salt");
		if (node == null || node.isNull()) {
			return null;
		}
		if (!node.isString() || node.stringValue().isEmpty()) {
			throw OpenAiError.badRequest("Parameter 'cache_salt' must be a non-empty string if provided.",
					"cache_salt");
		}
		return node.stringValue();
	}

	private static boolean booleanField(JsonNode node, String field) throws OpenAiError {
		JsonNode value = node.get(field);
		if (value == null || value.isNull()) {
			return false;
		}
		if (!value.isBoolean()) {
			throw OpenAiError.badRequest("'" + field + "' must be a boolean.", field);
		}
		return value.booleanValue();
	}
}
