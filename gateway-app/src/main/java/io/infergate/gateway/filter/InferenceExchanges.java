package io.infergate.gateway.filter;

import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.config.GatewayRoutesConfiguration;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.request.InfergateAttributes;

/** Which exchanges the request path's filters act on. */
final class InferenceExchanges {

	private InferenceExchanges() {
	}

	/**
	 * The API of an exchange on the inference route, or {@code null} for any other exchange. Computed once and
	 * kept in {@link InfergateAttributes#INFERENCE_API} for the later steps.
	 */
	static InferenceApi api(ServerWebExchange exchange) {
		InferenceApi api = exchange.getAttribute(InfergateAttributes.INFERENCE_API);
		if (api != null) {
			return api;
		}
		Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
		if (route == null || !GatewayRoutesConfiguration.INFERENCE_ROUTE_ID.equals(route.getId())) {
			return null;
		}
		api = InferenceApi.forPath(exchange.getRequest().getPath().value());
		if (api != null) {
			exchange.getAttributes().put(InfergateAttributes.INFERENCE_API, api);
		}
		return api;
	}
}
