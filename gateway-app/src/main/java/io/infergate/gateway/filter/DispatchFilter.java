package io.infergate.gateway.filter;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.model.ModelRoute;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.request.InfergateAttributes;

/**
 * Opens the request's {@link Dispatch}, which the load balancer fills in and the in-flight counts hang on, and
 * decorates the response: the served-by headers, and a final error event when the upstream fails mid-stream.
 * <p>
 * It is the last step outside the response writer, so the chain it wraps completes only once the response body
 * has been written, and the in-flight count it releases in {@code doFinally} covers the whole stream, an error,
 * or a client cancel.
 */
public class DispatchFilter implements GlobalFilter, Ordered {

	public static final String ENDPOINT_HEADER = "x-infergate-endpoint";

	public static final String POOL_HEADER = "x-infergate-pool";

	private final boolean servedByHeaders;

	/** @param servedByHeaders whether responses say which pool and endpoint served them */
	public DispatchFilter(boolean servedByHeaders) {
		this.servedByHeaders = servedByHeaders;
	}

	@Override
	public int getOrder() {
		return RequestPathOrder.DISPATCH;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceRequest request = exchange.getAttribute(InfergateAttributes.INFERENCE_REQUEST);
		if (request == null) {
			return chain.filter(exchange);
		}
		Dispatch dispatch = new Dispatch(request);
		exchange.getAttributes().put(InfergateAttributes.DISPATCH, dispatch);
		InferenceResponse response = new InferenceResponse(exchange.getResponse(), dispatch,
				exchange.getAttribute(InfergateAttributes.RELAYED_RESPONSE));
		if (servedByHeaders) {
			ModelRoute route = exchange.getAttribute(InfergateAttributes.MODEL_ROUTE);
			response.beforeCommit(() -> {
				response.getHeaders().set(POOL_HEADER, route.pool());
				if (exchange.getAttribute(ServerWebExchangeUtils.CLIENT_RESPONSE_ATTR) != null
						&& dispatch.lastEndpoint() != null) {
					response.getHeaders().set(ENDPOINT_HEADER, dispatch.lastEndpoint().toString());
				}
				return Mono.empty();
			});
		}
		return chain.filter(exchange.mutate().response(response).build()).doFinally((signal) -> dispatch.finish());
	}
}
