package io.infergate.gateway.filter;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.error.OpenAiErrorResponses;
import io.infergate.gateway.model.ModelCatalog;
import io.infergate.gateway.model.ModelRoute;
import io.infergate.routing.admission.Caller;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.request.InfergateAttributes;

/**
 * Resolves the parsed request's {@code model} to a pool (404 when no pool serves it), builds the
 * {@link InferenceRequest} the scheduler sees, and rewrites {@code model} in the body to what the pool's servers
 * expect: the target model, or the LoRA adapter's name.
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
		ParsedRequest parsed = exchange.getAttribute(InfergateAttributes.PARSED_REQUEST);
		if (parsed == null) {
			return chain.filter(exchange);
		}
		ModelRoute route = models.resolve(parsed.model());
		if (route == null) {
			return OpenAiErrorResponses.write(exchange, OpenAiError.unknownModel(parsed.model()));
		}
		Caller caller = exchange.getAttributeOrDefault(InfergateAttributes.CALLER, Caller.anonymous());
		InferenceRequest request = toInferenceRequest(exchange.getRequest(), parsed, route, caller);
		exchange.getAttributes().put(InfergateAttributes.MODEL_ROUTE, route);
		exchange.getAttributes().put(InfergateAttributes.INFERENCE_REQUEST, request);
		byte[] body = exchange.getAttribute(InfergateAttributes.REQUEST_BODY);
		byte[] forwarded = ModelRewriter.rewrite(body, parsed, route.upstreamModel());
		ServerHttpRequest cachedRequest = new CachedBodyRequest(exchange.getRequest(), forwarded,
				exchange.getResponse().bufferFactory());
		return chain.filter(exchange.mutate().request(cachedRequest).build());
	}

	private InferenceRequest toInferenceRequest(ServerHttpRequest httpRequest, ParsedRequest parsed, ModelRoute route,
			Caller caller) {
		String session = httpRequest.getHeaders().getFirst(SESSION_HEADER);
		if (session == null || session.isBlank()) {
			session = parsed.user();
		}
		int promptTokens = (parsed.promptTokenHint() > 0) ? parsed.promptTokenHint()
				: InferenceRequest.estimateTokens(parsed.promptText().length());
		int maxTokens = (parsed.maxTokens() != null) ? parsed.maxTokens() : assumedMaxTokens;
		return new InferenceRequest(parsed.model(), route.pool(), route.targetModel(), route.adapter(),
				parsed.promptText(), promptTokens, maxTokens, parsed.stream(), session, caller.priority());
	}
}
