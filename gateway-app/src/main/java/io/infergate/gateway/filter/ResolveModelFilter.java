package io.infergate.gateway.filter;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.error.OpenAiErrorResponses;
import io.infergate.gateway.model.ConfiguredModel;
import io.infergate.gateway.model.ModelCatalog;
import io.infergate.gateway.model.ModelRoute;
import io.infergate.gateway.model.StickyBy;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.request.InferenceRequest;

/**
 * Resolves the model being tried (the client's, or the fallback {@link ModelFallbacks} is on) to a route: a
 * configured model's lane, or its weighted target (kept per caller by {@code sticky-by}), or the one pool that serves
 * an unconfigured model. 404 when nothing serves the client's model, suggesting close names. Then builds the
 * {@link InferenceRequest} the scheduler sees and rewrites {@code model} in the body to what the pool's servers
 * expect: the target model, or the LoRA adapter's name.
 * <p>
 * What the scheduler is told depends on the API's work: a generation counts its prompt estimate and its
 * {@code max_tokens} (or the assumed default) and carries its prompt for prefix affinity; an encoding (embeddings,
 * rerank, score) counts its input and carries no prompt; a tokenizer call counts nothing. Lanes compare the same
 * total: estimated prompt tokens plus {@code max_tokens}.
 */
public class ResolveModelFilter implements GlobalFilter, Ordered {

	public static final String SESSION_HEADER = "x-session-id";

	private final ModelCatalog models;

	private final int assumedMaxTokens;

	/**
	 * @param assumedMaxTokens tokens a request is assumed to generate when it sets no {@code max_tokens}
	 */
	public ResolveModelFilter(ModelCatalog models, int assumedMaxTokens) {
		this.models = models;
		this.assumedMaxTokens = assumedMaxTokens;
	}

	@Override
	public int getOrder() {
		return RequestPathOrder.RESOLVE_MODEL;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.parsed(exchange);
		if (context == null) {
			return chain.filter(exchange);
		}
		ParsedRequest parsed = context.parsed();
		InferenceApi.Work work = context.api().work();
		ModelFallbacks fallbacks = context.fallbacks();
		String model = (fallbacks != null) ? fallbacks.current() : parsed.model();
		int promptTokens = (work == InferenceApi.Work.TOKENIZER) ? 0 : parsed.inputTokens();
		int maxTokens = (work != InferenceApi.Work.GENERATION) ? 0
				: (parsed.maxTokens() != null) ? parsed.maxTokens() : assumedMaxTokens;
		long tokens = (long) promptTokens + maxTokens;
		ModelRoute route;
		ConfiguredModel configured = models.configured(model);
		if (configured != null) {
			route = configured.route(stickyKey(configured.stickyBy(), exchange, context), tokens);
			if (route == null) {
				return noLaneFits(exchange, configured, tokens, fallbacks);
			}
		}
		else {
			route = models.served(model);
			if (route == null) {
				return OpenAiErrorResponses.write(exchange,
						OpenAiError.unknownModel(model, models.suggestionsFor(model)));
			}
		}
		String promptText = (work == InferenceApi.Work.GENERATION) ? parsed.promptText() : "";
		InferenceRequest request = new InferenceRequest(route.model(), route.pool(), route.targetModel(),
				route.adapter(), promptText, promptTokens, maxTokens, parsed.stream(),
				sessionKey(exchange.getRequest(), parsed), context.caller().priority());
		context.resolved(route, request);
		byte[] forwarded = ModelRewriter.rewrite(context.body(), parsed, route.upstreamModel());
		ServerHttpRequest cachedRequest = new CachedBodyRequest(exchange.getRequest(), forwarded,
				exchange.getResponse().bufferFactory());
		return chain.filter(exchange.mutate().request(cachedRequest).build());
	}

	/** The request's lanes all take fewer tokens: the next fallback, if any, else 400. */
	private static Mono<Void> noLaneFits(ServerWebExchange exchange, ConfiguredModel model, long tokens,
			ModelFallbacks fallbacks) {
		String why = "about " + tokens + " tokens (estimated prompt plus max_tokens), more than any lane of `"
				+ model.name() + "` takes (at most " + model.largestRequestTokens() + ")";
		if (fallbacks != null && fallbacks.hasNext()) {
			return Mono.error(new ModelUnavailableException("the request needs " + why));
		}
		return OpenAiErrorResponses.write(exchange, OpenAiError.tooManyTokens("The request needs " + why + "."));
	}

	/** The key {@code sticky-by} keeps a caller on one target by, or {@code null} for a split by weight alone. */
	static String stickyKey(StickyBy stickyBy, ServerWebExchange exchange, InferenceContext context) {
		return switch (stickyBy) {
			case USER -> context.parsed().user();
			case SESSION -> sessionKey(exchange.getRequest(), context.parsed());
			case API_KEY -> context.caller().keyId();
			case NONE -> null;
		};
	}

	private static String sessionKey(ServerHttpRequest httpRequest, ParsedRequest parsed) {
		String session = httpRequest.getHeaders().getFirst(SESSION_HEADER);
		return (session == null || session.isBlank()) ? parsed.user() : session;
	}
}
