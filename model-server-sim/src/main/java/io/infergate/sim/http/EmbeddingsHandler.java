package io.infergate.sim.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.sim.engine.WallClockEngine;
import io.infergate.sim.fault.FaultInjector;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /v1/embeddings} in OpenAI's format. {@code input} is a string, an array of strings, an array of token
 * ids or an array of such arrays (vLLM also takes chat {@code messages}), texts tokenized by the server's
 * {@link PromptEncoder} as prompts (chat messages without the generation prompt unless
 * {@code add_generation_prompt}, as vLLM); each input is one forward pass on the engine ({@link ForwardPasses}).
 * Its embedding is a deterministic unit vector of {@value #DIMENSIONS} dimensions derived from its tokens (or the
 * first {@code dimensions} of them), as floats or, with {@code "encoding_format":"base64"}, as base64 of
 * little-endian float32s. An input longer than {@code --max-model-len} is refused with vLLM's 400.
 */
public final class EmbeddingsHandler implements HttpHandler {

	public static final int DIMENSIONS = 64;

	private final ServedModel models;

	private final WallClockEngine engine;

	private final FaultInjector faults;

	private final RequestEncoder encoder;

	public EmbeddingsHandler(String baseModel, WallClockEngine engine, PromptEncoder encoder, FaultInjector faults) {
		this.models = new ServedModel(baseModel, engine.config().loraModules());
		this.engine = engine;
		this.faults = faults;
		this.encoder = new RequestEncoder(encoder);
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		byte[] body = HttpResponses.postBody(exchange, "/v1/embeddings");
		if (body == null || HttpResponses.answeredByFault(exchange, this.faults)) {
			return;
		}
		try {
			JsonNode root = Json.readObject(body);
			String model = this.models.name(root);
			String adapter = this.models.adapterOf(model);
			List<int[]> inputs = inputs(root);
			boolean base64 = base64(root);
			int dimensions = dimensions(root);
			ForwardPasses.run(this.engine, inputs, adapter, "embedding generation", "input");
			HttpResponses.sendJson(exchange, 200, response(model, inputs, base64, dimensions));
		}
		catch (OpenAiError error) {
			HttpResponses.sendError(exchange, error);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("simulator closing", ex);
		}
	}

	private List<int[]> inputs(JsonNode root) throws OpenAiError {
		JsonNode messages = root.get("messages");
		JsonNode input = root.get("input");
		if (messages != null && !messages.isNull()) {
			return List.of(this.encoder.chat(RequestChatPrompt.read(root, "messages", false)));
		}
		if (input == null || input.isNull()) {
			throw OpenAiError.badRequest("'input' is required.", "input");
		}
		if (input.isString()) {
			return List.of(this.encoder.prompt(input.stringValue()));
		}
		if (!input.isArray() || input.isEmpty()) {
			throw OpenAiError.badRequest("'input' must be a string or a non-empty array.", "input");
		}
		if (input.get(0).isIntegralNumber()) {
			return List.of(tokenIds(input));
		}
		List<int[]> inputs = new ArrayList<>(input.size());
		for (JsonNode item : input.values()) {
			if (item.isString()) {
				inputs.add(this.encoder.prompt(item.stringValue()));
			}
			else if (item.isArray()) {
				inputs.add(tokenIds(item));
			}
			else {
				throw OpenAiError.badRequest("'input' must hold strings or arrays of token ids.", "input");
			}
		}
		return inputs;
	}

	private static int[] tokenIds(JsonNode array) throws OpenAiError {
		int[] tokens = new int[array.size()];
		for (int i = 0; i < tokens.length; i++) {
			JsonNode token = array.get(i);
			if (!token.isIntegralNumber() || !token.canConvertToInt()) {
				throw OpenAiError.badRequest("'input' must hold strings or arrays of token ids.", "input");
			}
			tokens[i] = token.intValue();
		}
		return tokens;
	}

	private static boolean base64(JsonNode root) throws OpenAiError {
		JsonNode format = root.get("encoding_format");
		if (format == null || format.isNull() || "float".equals(format.asString(""))) {
			return false;
		}
		if ("base64".equals(format.asString(""))) {
			return true;
		}
		throw OpenAiError.badRequest("'encoding_format' must be 'float' or 'base64'.", "encoding_format");
	}

	private static int dimensions(JsonNode root) throws OpenAiError {
		JsonNode dimensions = root.get("dimensions");
		if (dimensions == null || dimensions.isNull()) {
			return DIMENSIONS;
		}
		if (!dimensions.isIntegralNumber() || dimensions.intValue() < 1 || dimensions.intValue() > DIMENSIONS) {
			throw OpenAiError.badRequest("'dimensions' must be an integer from 1 to " + DIMENSIONS + ".", "dimensions");
		}
		return dimensions.intValue();
	}

	private static String response(String model, List<int[]> inputs, boolean base64, int dimensions) {
		ObjectNode response = Json.MAPPER.createObjectNode();
		response.put("id", "embd-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE));
		response.put("object", "list");
		response.put("created", System.currentTimeMillis() / 1000);
		response.put("model", model);
		ArrayNode data = response.putArray("data");
		for (int i = 0; i < inputs.size(); i++) {
			ObjectNode item = data.addObject();
			item.put("index", i);
			item.put("object", "embedding");
			float[] vector = vector(inputs.get(i), dimensions);
			if (base64) {
				ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
				for (float value : vector) {
					bytes.putFloat(value);
				}
				item.put("embedding", Base64.getEncoder().encodeToString(bytes.array()));
			}
			else {
				ArrayNode values = item.putArray("embedding");
				for (float value : vector) {
					values.add(value);
				}
			}
		}
		int tokens = ForwardPasses.tokens(inputs);
		ObjectNode usage = response.putObject("usage");
		usage.put("prompt_tokens", tokens);
		usage.put("total_tokens", tokens);
		usage.put("completion_tokens", 0);
		return response.toString();
	}

	/** A unit vector that depends only on the tokens: the same input always embeds the same. */
	static float[] vector(int[] tokens, int dimensions) {
		long seed = 0xcbf29ce484222325L;
		for (int token : tokens) {
			seed = (seed ^ token) * 0x100000001b3L;
		}
		float[] vector = new float[dimensions];
		double norm = 0;
		for (int i = 0; i < dimensions; i++) {
			long mixed = mix(seed + i * 0x9e3779b97f4a7c15L);
			vector[i] = (float) ((mixed >>> 11) * 0x1.0p-53 * 2 - 1);
			norm += vector[i] * vector[i];
		}
		float scale = (float) (1 / Math.sqrt(Math.max(norm, 1e-12)));
		for (int i = 0; i < dimensions; i++) {
			vector[i] *= scale;
		}
		return vector;
	}

	/** SplitMix64's finalizer. */
	private static long mix(long z) {
		z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
		z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
		return z ^ (z >>> 31);
	}
}
