package io.infergate.gateway.route;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.error.OpenAiErrorResponses;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.engine.Resolution;
import io.infergate.routing.openai.ParsedRequest;

/**
 * Resolves the model being tried (the client's, or the fallback {@link ModelFallbacks} is on) with the
 * {@link InferenceEngine}: 404 when nothing serves the client's model, suggesting close names; the next fallback,
 * else 400, when the request fits none of the model's lanes. Then rewrites {@code model} in the body to what the
 * pool's servers expect: the target model, or the LoRA adapter's name.
 */
public class ResolveModelFilter implements GatewayFilter {

	public static final String SESSION_HEADER = "x-session-id";

	private final InferenceEngine engine;

	public ResolveModelFilter(InferenceEngine engine) {
		this.engine = engine;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.find(exchange);
		ParsedRequest parsed = context.parsed();
		ModelFallbacks fallbacks = context.fallbacks();
		String model = (fallbacks != null) ? fallbacks.current() : parsed.model();
		Resolution resolution = engine.resolve(model, parsed, context.api().work(), context.caller(),
				sessionKey(exchange.getRequest(), parsed));
		if (resolution instanceof Resolution.Routed routed) {
			context.resolved(routed.route(), routed.request());
			byte[] forwarded = ModelRewriter.rewrite(context.body(), parsed, routed.route().upstreamModel());
			ServerHttpRequest cachedRequest = new CachedBodyRequest(exchange.getRequest(), forwarded,
					exchange.getResponse().bufferFactory());
			return chain.filter(exchange.mutate().request(cachedRequest).build());
		}
		if (resolution instanceof Resolution.NoLaneFits noLane) {
			if (fallbacks != null && fallbacks.hasNext()) {
				return Mono.error(new ModelUnavailableException("the request needs " + noLane.reason()));
			}
			return OpenAiErrorResponses.write(exchange,
					OpenAiError.tooManyTokens("The request needs " + noLane.reason() + "."));
		}
		Resolution.UnknownModel unknown = (Resolution.UnknownModel) resolution;
		return OpenAiErrorResponses.write(exchange, OpenAiError.unknownModel(unknown.model(), unknown.suggestions()));
	}

	private static String sessionKey(ServerHttpRequest httpRequest, ParsedRequest parsed) {
		String session = httpRequest.getHeaders().getFirst(SESSION_HEADER);
		return (session == null || session.isBlank()) ? parsed.user() : session;
	}
}
