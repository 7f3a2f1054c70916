package io.infergate.sim.http;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * vLLM's {@code POST /v1/rerank} ({@code query} against each of {@code documents}, best first, {@code top_n} of
 * them) and {@code POST /v1/score} ({@code text_1} against each of {@code text_2}, or pairwise when both are
 * arrays). Each pair is one forward pass on the engine ({@link ForwardPasses}) of the two texts' tokens (each
 * tokenized by the server's {@link PromptEncoder} as a prompt); its score is the share of distinct tokens the two
 * texts have in common (Jaccard), so a document that repeats the query ranks first.
 */
public final class ScoringHandler implements HttpHandler {

	private final boolean rerank;

	private final String path;

	private final ServedModel models;

	private final WallClockEngine engine;

	private final FaultInjector faults;

	private final RequestEncoder encoder;

	public ScoringHandler(boolean rerank, String baseModel, WallClockEngine engine, PromptEncoder encoder,
			FaultInjector faults) {
		this.rerank = rerank;
		this.path = rerank ? "/v1/rerank" : "/v1/score";
		this.models = new ServedModel(baseModel, engine.config().loraModules());
		this.engine = engine;
		this.faults = faults;
		this.encoder = new RequestEncoder(encoder);
	}

	private record Pair(int index, String document, int[] left, int[] right) {

		double score() {
			Set<Integer> left = new HashSet<>();
			for (int token : this.left) {
				left.add(token);
			}
			Set<Integer> union = new HashSet<>(left);
			int shared = 0;
			Set<Integer> right = new HashSet<>();
			for (int token : this.right) {
				if (right.add(token)) {
					shared += left.contains(token) ? 1 : 0;
					union.add(token);
				}
			}
			return union.isEmpty() ? 0 : (double) shared / union.size();
		}

		int[] joined() {
			int[] joined = new int[this.left.length + this.right.length];
			System.arraycopy(this.left, 0, joined, 0, this.left.length);
			System.arraycopy(this.right, 0, joined, this.left.length, this.right.length);
			return joined;
		}
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		byte[] body = HttpResponses.postBody(exchange, this.path);
		if (body == null || HttpResponses.answeredByFault(exchange, this.faults)) {
			return;
		}
		try {
			JsonNode root = Json.readObject(body);
			String model = this.models.name(root);
			String adapter = this.models.adapterOf(model);
			List<Pair> pairs = this.rerank ? rerankPairs(root) : scorePairs(root);
			List<int[]> passes = new ArrayList<>(pairs.size());
			for (Pair pair : pairs) {
				passes.add(pair.joined());
			}
			ForwardPasses.run(this.engine, passes, adapter, this.rerank ? "rerank" : "score",
					this.rerank ? "documents" : "text_2");
			int tokens = ForwardPasses.tokens(passes);
			HttpResponses.sendJson(exchange, 200,
					this.rerank ? rerankResponse(model, pairs, topN(root, pairs.size()), tokens)
							: scoreResponse(model, pairs, tokens));
		}
		catch (OpenAiError error) {
			HttpResponses.sendError(exchange, error);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("simulator closing", ex);
		}
	}

	private List<Pair> rerankPairs(JsonNode root) throws OpenAiError {
		JsonNode query = root.get("query");
		if (query == null || !query.isString()) {
			throw OpenAiError.badRequest("'query' is required and must be a string.", "query");
		}
		List<String> documents = texts(root.get("documents"), "documents");
		int[] queryTokens = this.encoder.prompt(query.stringValue());
		List<Pair> pairs = new ArrayList<>(documents.size());
		for (int i = 0; i < documents.size(); i++) {
			pairs.add(new Pair(i, documents.get(i), queryTokens, this.encoder.prompt(documents.get(i))));
		}
		return pairs;
	}

	private List<Pair> scorePairs(JsonNode root) throws OpenAiError {
		List<String> first = texts(root.get("text_1"), "text_1");
		List<String> second = texts(root.get("text_2"), "text_2");
		if (first.size() != 1 && first.size() != second.size()) {
			throw OpenAiError.badRequest("'text_1' must hold one text, or as many as 'text_2'.", "text_1");
		}
		List<Pair> pairs = new ArrayList<>(second.size());
		for (int i = 0; i < second.size(); i++) {
			String left = first.get((first.size() == 1) ? 0 : i);
			pairs.add(new Pair(i, second.get(i), this.encoder.prompt(left), this.encoder.prompt(second.get(i))));
		}
		return pairs;
	}

	private static List<String> texts(JsonNode node, String field) throws OpenAiError {
		if (node != null && node.isString()) {
			return List.of(node.stringValue());
		}
		if (node == null || !node.isArray() || node.isEmpty()) {
			throw OpenAiError.badRequest("'" + field + "' is required: a string or a non-empty array of strings.",
					field);
		}
		List<String> texts = new ArrayList<>(node.size());
		for (JsonNode text : node.values()) {
			if (!text.isString()) {
				throw OpenAiError.badRequest("'" + field + "' must hold strings.", field);
			}
			texts.add(text.stringValue());
		}
		return texts;
	}

	private static int topN(JsonNode root, int documents) {
		JsonNode topN = root.get("top_n");
		return (topN != null && topN.isIntegralNumber() && topN.intValue() > 0) ? Math.min(topN.intValue(), documents)
				: documents;
	}

	private static String rerankResponse(String model, List<Pair> pairs, int topN, int tokens) {
		ObjectNode response = Json.MAPPER.createObjectNode();
		response.put("id", "rerank-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE));
		response.put("model", model);
		response.putObject("usage").put("total_tokens", tokens);
		ArrayNode results = response.putArray("results");
		pairs.stream()
			.sorted(Comparator.comparingDouble(Pair::score).reversed().thenComparingInt(Pair::index))
			.limit(topN)
			.forEach((pair) -> {
				ObjectNode result = results.addObject();
				result.put("index", pair.index());
				result.putObject("document").put("text", pair.document());
				result.put("relevance_score", pair.score());
			});
		return response.toString();
	}

	private static String scoreResponse(String model, List<Pair> pairs, int tokens) {
		ObjectNode response = Json.MAPPER.createObjectNode();
		response.put("id", "score-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE));
		response.put("object", "list");
		response.put("created", System.currentTimeMillis() / 1000);
		response.put("model", model);
		ArrayNode data = response.putArray("data");
		for (Pair pair : pairs) {
			ObjectNode item = data.addObject();
			item.put("index", pair.index());
			item.put("object", "score");
			item.put("score", pair.score());
		}
		ObjectNode usage = response.putObject("usage");
		usage.put("prompt_tokens", tokens);
		usage.put("total_tokens", tokens);
		usage.put("completion_tokens", 0);
		return response.toString();
	}
}
