package io.infergate.gateway.route;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.flowcontrol.FlowTicket;
import io.infergate.routing.pool.EnginePriority;

/**
 * Tells the engine the request's priority, in the body it forwards: for a pool whose
 * {@code engine-priority} is {@code vllm} or {@code sglang}, {@code priority} is set to the request's engine level
 * ({@link EnginePriority#level}) in that engine's convention, which the flow control that dispatched it fixed (the
 * caller's priority, as lowered by {@code x-infergate-priority} or the body's own {@code priority}, refined by its
 * tenant's fair share). For a pool told nothing, a {@code priority} the client sent is taken out, so that an engine
 * started without priority scheduling never sees one. Every other byte of the body is left as it was.
 */
public class EnginePriorityFilter implements GatewayFilter {

	private final InferenceEngine engine;

	public EnginePriorityFilter(InferenceEngine engine) {
		this.engine = engine;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.find(exchange);
		FlowTicket ticket = context.flowTicket();
		Integer forwarded = (ticket != null) ? engine.enginePriority(ticket) : null;
		boolean clientSentOne = context.parsed().priority() != null;
		if ((forwarded == null && !clientSentOne) || !(exchange.getRequest() instanceof CachedBodyRequest request)) {
			return chain.filter(exchange);
		}
		byte[] body = (forwarded != null) ? PriorityRewriter.set(request.body(), forwarded)
				: PriorityRewriter.remove(request.body());
		CachedBodyRequest rewritten = new CachedBodyRequest(request, body, exchange.getResponse().bufferFactory());
		return chain.filter(exchange.mutate().request(rewritten).build());
	}
}
