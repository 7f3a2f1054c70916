package io.infergate.gateway.route;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.auth.ApiKey;
import io.infergate.routing.auth.ApiKeys;
import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.error.OpenAiErrorResponses;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.openai.ParsedRequest;

/**
 * Answers 403 when the caller's key may not call the {@code model} it asked for ({@code infergate.auth.keys.<id>.models}
 * globs), before the model is resolved, so a key learns nothing of models it may not use.
 */
public class AuthorizeModelFilter implements GatewayFilter {

	private final ApiKeys keys;

	public AuthorizeModelFilter(ApiKeys keys) {
		this.keys = keys;
	}


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.find(exchange);
		Caller caller = context.authenticatedCaller();
		if (caller == null) {
			return chain.filter(exchange); // the anonymous caller, with keys off, may call every model
		}
		ParsedRequest parsed = context.parsed();
		ApiKey key = keys.byId(caller.keyId());
		if (key != null && !key.mayCall(parsed.model())) {
			return OpenAiErrorResponses.write(exchange, OpenAiError.modelNotAllowed(key.id(), parsed.model()));
		}
		return chain.filter(exchange);
	}
}
