package io.infergate.gateway.route;

import java.util.Set;

import reactor.netty.Connection;

import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * Forgets an upstream attempt that failed before any byte reached the client, so the next one (another endpoint,
 * or a fallback model) starts on a clean exchange.
 */
final class FailedAttempts {

	private FailedAttempts() {
	}

	/**
	 * Closes the attempt's unread upstream connection, removes the headers the routing filter copied from its
	 * answer (the next answer's are added to the response, never set: a stale {@code Content-Length} would announce
	 * a body that never comes), and clears its status and routing state.
	 */
	static void forget(ServerWebExchange exchange) {
		Connection unread = exchange.getAttribute(ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR);
		if (unread != null) {
			unread.dispose();
		}
		Set<String> copied = exchange.getAttribute(ServerWebExchangeUtils.CLIENT_RESPONSE_HEADER_NAMES);
		if (copied != null && !exchange.getResponse().isCommitted()) {
			HttpHeaders headers = exchange.getResponse().getHeaders();
			copied.forEach(headers::remove);
		}
		for (String attribute : new String[] { ServerWebExchangeUtils.CLIENT_RESPONSE_ATTR,
				ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR, ServerWebExchangeUtils.CLIENT_RESPONSE_HEADER_NAMES,
				ServerWebExchangeUtils.GATEWAY_LOADBALANCER_RESPONSE_ATTR }) {
			exchange.getAttributes().remove(attribute);
		}
		ServerWebExchangeUtils.reset(exchange);
		exchange.getResponse().setStatusCode(null);
	}
}
