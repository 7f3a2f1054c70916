package io.infergate.sim.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.infergate.sim.engine.EngineRequest;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.sim.engine.WallClockEngine;
import io.infergate.sim.fault.FaultInjector;
import io.infergate.simtokenizer.StandInChatTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /v1/responses}, OpenAI's Responses API, stateless: {@code instructions} (a system message) and
 * {@code input} (a string, or message and {@code function_call_output} items) are rendered with the chat template
 * and run on the engine like a chat completion (with a model's tokenizer, as vLLM converts them: also
 * {@code function_call} items, as assistant tool calls, and function {@code tools}), generating exactly
 * {@code max_output_tokens} (default 16) filler tokens. The answer is a {@code response} object with one assistant
 * message; with {@code "stream":true} it is the typed event stream ({@code response.created},
 * {@code response.output_item.added}, {@code response.content_part.added}, one {@code response.output_text.delta}
 * per token, the matching {@code .done} events, {@code response.completed}).
 */
public final class ResponsesHandler implements HttpHandler {

	private final ServedModel models;

	private final WallClockEngine engine;

	private final FaultInjector faults;

	private final RequestEncoder encoder;

	public ResponsesHandler(String baseModel, WallClockEngine engine, PromptEncoder encoder, FaultInjector faults) {
		this.models = new ServedModel(baseModel, engine.config().loraModules());
		this.engine = engine;
		this.faults = faults;
		this.encoder = new RequestEncoder(encoder);
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		byte[] body = HttpResponses.postBody(exchange, "/v1/responses");
		if (body == null || HttpResponses.answeredByFault(exchange, this.faults)) {
			return;
		}
		String model;
		boolean stream;
		EngineRequest request;
		GenerationProgress progress;
		try {
			JsonNode root = Json.readObject(body);
			model = this.models.name(root);
			String adapter = this.models.adapterOf(model);
			int[] prompt = this.encoder.chat(new RequestChatPrompt(messages(root), () -> jsonMessages(root),
					() -> tools(root), root, true));
			int maxTokens = maxOutputTokens(root);
			stream = root.path("stream").asBoolean(false);
			String reason = this.engine.rejectionReason(prompt.length, maxTokens, adapter);
			if (reason != null) {
				throw OpenAiError.badRequest(reason, "input");
			}
			progress = new GenerationProgress(stream);
			request = this.engine.submit(new EngineRequest(prompt, adapter, maxTokens, progress));
		}
		catch (OpenAiError error) {
			HttpResponses.sendError(exchange, error);
			return;
		}
		Ids ids = new Ids();
		try {
			if (stream) {
				stream(exchange, model, ids, request, progress);
			}
			else {
				progress.awaitFinished();
				HttpResponses.sendJson(exchange, 200, response(model, ids, request, true).toString());
			}
		}
		catch (InterruptedException ex) {
			this.engine.abort(request);
			Thread.currentThread().interrupt();
			throw new InterruptedIOException("simulator closing");
		}
		catch (IOException ex) {
			this.engine.abort(request);
			throw ex;
		}
	}

	private static List<StandInChatTemplate.Message> messages(JsonNode root) throws OpenAiError {
		List<StandInChatTemplate.Message> messages = new ArrayList<>();
		JsonNode instructions = root.get("instructions");
		if (instructions != null && instructions.isString()) {
			messages.add(new StandInChatTemplate.Message("system", instructions.stringValue()));
		}
		JsonNode input = root.get("input");
		if (input != null && input.isString()) {
			messages.add(new StandInChatTemplate.Message("user", input.stringValue()));
		}
		else if (input != null && input.isArray() && !input.isEmpty()) {
			for (JsonNode item : input.values()) {
				JsonNode role = item.get("role");
				if (role != null && role.isString()) {
					messages.add(new StandInChatTemplate.Message(role.stringValue(), ChatMessages.text(item.get("content"),
							"input")));
				}
				else if ("function_call_output".equals(item.path("type").asString(""))) {
					messages.add(new StandInChatTemplate.Message("tool", item.path("output").asString("")));
				}
			}
		}
		else {
			throw OpenAiError.badRequest("'input' is required: a string or a non-empty array of items.", "input");
		}
		return messages;
	}

	/**
	 * The conversation as vLLM hands it to a chat template: {@code instructions} a system message, message items as
	 * they are, a {@code function_call} an assistant message with that tool call, a {@code function_call_output} a
	 * tool message. Called after {@link #messages} checked the input.
	 */
	private static List<?> jsonMessages(JsonNode root) {
		List<Object> messages = new ArrayList<>();
		JsonNode instructions = root.get("instructions");
		if (instructions != null && instructions.isString()) {
			messages.add(message("system", instructions.stringValue()));
		}
		JsonNode input = root.get("input");
		if (input.isString()) {
			messages.add(message("user", input.stringValue()));
			return messages;
		}
		for (JsonNode item : input.values()) {
			String type = item.path("type").asString("");
			if (item.path("role").isString()) {
				messages.add(RequestChatPrompt.plain(item));
			}
			else if ("function_call".equals(type)) {
				Map<String, Object> function = new LinkedHashMap<>();
				function.put("name", item.path("name").asString(""));
				function.put("arguments", item.path("arguments").asString("{}"));
				Map<String, Object> call = new LinkedHashMap<>();
				call.put("id", item.path("call_id").asString(""));
				call.put("type", "function");
				call.put("function", function);
				Map<String, Object> message = message("assistant", null);
				message.put("tool_calls", List.of(call));
				messages.add(message);
			}
			else if ("function_call_output".equals(type)) {
				Map<String, Object> message = message("tool", item.path("output").asString(""));
				message.put("tool_call_id", item.path("call_id").asString(""));
				messages.add(message);
			}
		}
		return messages;
	}

	private static Map<String, Object> message(String role, String content) {
		Map<String, Object> message = new LinkedHashMap<>();
		message.put("role", role);
		message.put("content", content);
		return message;
	}

	/** The Responses API's function tools ({@code name} at the top) in the chat format a template expects. */
	private static List<?> tools(JsonNode root) {
		List<?> tools = RequestChatPrompt.list(root, "tools");
		if (tools == null) {
			return null;
		}
		List<Object> chatTools = new ArrayList<>();
		for (Object tool : tools) {
			if (tool instanceof Map<?, ?> fields && "function".equals(fields.get("type"))
					&& fields.get("name") instanceof String) {
				Map<Object, Object> function = new LinkedHashMap<>(fields);
				function.remove("type");
				Map<String, Object> chatTool = new LinkedHashMap<>();
				chatTool.put("type", "function");
				chatTool.put("function", function);
				chatTools.add(chatTool);
			}
		}
		return chatTools;
	}

	private static int maxOutputTokens(JsonNode root) throws OpenAiError {
		JsonNode node = root.get("max_output_tokens");
		if (node == null || node.isNull()) {
			return GenerationHandler.DEFAULT_MAX_TOKENS;
		}
		if (!node.isIntegralNumber() || !node.canConvertToInt() || node.intValue() < 1) {
			throw OpenAiError.badRequest("'max_output_tokens' must be an integer of at least 1.", "max_output_tokens");
		}
		return node.intValue();
	}

	private void stream(HttpExchange exchange, String model, Ids ids, EngineRequest request,
			GenerationProgress progress) throws IOException, InterruptedException {
		exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
		exchange.getResponseHeaders().set("Cache-Control", "no-cache");
		exchange.sendResponseHeaders(200, 0);
		OutputStream out = exchange.getResponseBody();
		Events events = new Events(out);
		events.send("response.created", "response", response(model, ids, request, false));
		ObjectNode item = message(ids, "", false);
		events.send("response.output_item.added", item, 0, -1);
		events.send("response.content_part.added", outputText(""), 0, 0);
		int sent = 0;
		int maxTokens = request.maxTokens();
		while (sent < maxTokens) {
			int produced = progress.awaitTokensBeyond(sent);
			for (; sent < produced; sent++) {
				ObjectNode delta = events.event("response.output_text.delta");
				delta.put("item_id", ids.message);
				delta.put("output_index", 0);
				delta.put("content_index", 0);
				delta.put("delta", FillerText.token(sent));
				events.write("response.output_text.delta", delta);
			}
			out.flush();
		}
		String text = FillerText.of(maxTokens);
		ObjectNode done = events.event("response.output_text.done");
		done.put("item_id", ids.message);
		done.put("output_index", 0);
		done.put("content_index", 0);
		done.put("text", text);
		events.write("response.output_text.done", done);
		events.send("response.content_part.done", outputText(text), 0, 0);
		events.send("response.output_item.done", message(ids, text, true), 0, -1);
		events.send("response.completed", "response", response(model, ids, request, true));
		out.close();
		exchange.close();
	}

	private static ObjectNode response(String model, Ids ids, EngineRequest request, boolean completed) {
		ObjectNode response = Json.MAPPER.createObjectNode();
		response.put("id", ids.response);
		response.put("object", "response");
		response.put("created_at", ids.createdAt);
		response.put("status", completed ? "completed" : "in_progress");
		response.put("model", model);
		response.putNull("error");
		if (completed) {
			response.putArray("output").add(message(ids, FillerText.of(request.numOutputTokens()), true));
			int input = request.numPromptTokens();
			int output = request.numOutputTokens();
			ObjectNode usage = response.putObject("usage");
			usage.put("input_tokens", input);
			usage.putObject("input_tokens_details").put("cached_tokens", Math.max(0, request.cachedPromptTokens()));
			usage.put("output_tokens", output);
			usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
			usage.put("total_tokens", input + output);
		}
		else {
			response.putArray("output");
			response.putNull("usage");
		}
		return response;
	}

	private static ObjectNode message(Ids ids, String text, boolean completed) {
		ObjectNode message = Json.MAPPER.createObjectNode();
		message.put("type", "message");
		message.put("id", ids.message);
		message.put("status", completed ? "completed" : "in_progress");
		message.put("role", "assistant");
		if (completed) {
			message.putArray("content").add(outputText(text));
		}
		else {
			message.putArray("content");
		}
		return message;
	}

	private static ObjectNode outputText(String text) {
		ObjectNode part = Json.MAPPER.createObjectNode();
		part.put("type", "output_text");
		part.put("text", text);
		part.putArray("annotations");
		return part;
	}

	/** The ids of one response and its message. */
	private static final class Ids {

		final String response = "resp_" + hex();

		final String message = "msg_" + hex();

		final long createdAt = System.currentTimeMillis() / 1000;

		private static String hex() {
			return Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
		}
	}

	/** Server-sent events of the Responses API: {@code event: type}, then its data with a sequence number. */
	private static final class Events {

		private final OutputStream out;

		private int sequence;

		Events(OutputStream out) {
			this.out = out;
		}

		ObjectNode event(String type) {
			ObjectNode event = Json.MAPPER.createObjectNode();
			event.put("type", type);
			event.put("sequence_number", this.sequence++);
			return event;
		}

		/** An event carrying {@code value} under {@code field}. */
		void send(String type, String field, ObjectNode value) throws IOException {
			ObjectNode event = event(type);
			event.set(field, value);
			write(type, event);
		}

		/** An item event ({@code contentIndex} < 0) or a content-part event. */
		void send(String type, ObjectNode value, int outputIndex, int contentIndex) throws IOException {
			ObjectNode event = event(type);
			event.put("output_index", outputIndex);
			if (contentIndex >= 0) {
				event.put("content_index", contentIndex);
				event.set("part", value);
			}
			else {
				event.set("item", value);
			}
			write(type, event);
		}

		void write(String type, ObjectNode event) throws IOException {
			this.out.write(("event: " + type + "\ndata: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
			this.out.flush();
		}
	}
}
