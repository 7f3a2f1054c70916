package io.infergate.gateway.filter;

import java.net.ConnectException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import io.netty.channel.ConnectTimeoutException;
import reactor.netty.channel.AbortedException;
import reactor.netty.http.client.PrematureCloseException;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.request.InfergateAttributes;

/**
 * Sends an inference request to another endpoint when the chosen one cannot be reached, or answers 502/503,
 * before the first byte of its response body. Once the body has started the request is never moved: the
 * client may already hold part of the answer.
 * <p>
 * It sits between the route's URL and the pool routing, so a retry runs the pool routing, the load balancer
 * (which skips endpoints the request already tried) and the HTTP client again, re-sending the cached body.
 */
public class UpstreamRetryFilter implements GlobalFilter, Ordered {

	private static final Log logger = LogFactory.getLog(UpstreamRetryFilter.class);

	private final int retries;

	public UpstreamRetryFilter(int retries) {
		this.retries = retries;
	}

	@Override
	public int getOrder() {
		return RequestPathOrder.UPSTREAM_RETRY;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		Dispatch dispatch = exchange.getAttribute(InfergateAttributes.DISPATCH);
		if (dispatch == null || retries == 0) {
			return chain.filter(exchange);
		}
		return attempt(exchange, chain, dispatch);
	}

	private Mono<Void> attempt(ServerWebExchange exchange, GatewayFilterChain chain, Dispatch dispatch) {
		return chain.filter(exchange).then(Mono.defer(() -> {
			HttpStatusCode status = exchange.getResponse().getStatusCode();
			if (status != null && (status.value() == 502 || status.value() == 503) && canRetry(exchange, dispatch)) {
				return retry(exchange, chain, dispatch, "answered " + status.value());
			}
			return Mono.<Void>empty();
		})).onErrorResume((ex) -> isConnectFailure(ex) && canRetry(exchange, dispatch),
				(ex) -> retry(exchange, chain, dispatch, ex.toString()));
	}

	private Mono<Void> retry(ServerWebExchange exchange, GatewayFilterChain chain, Dispatch dispatch, String why) {
		logger.info("Endpoint " + dispatch.lastEndpoint() + " " + why + " before any response byte; retrying "
				+ dispatch.request().requestedModel() + " on another endpoint of pool '" + dispatch.request().pool()
				+ "'");
		ServerWebExchangeUtils.reset(exchange);
		exchange.getResponse().setStatusCode(null);
		return attempt(exchange, chain, dispatch);
	}

	private boolean canRetry(ServerWebExchange exchange, Dispatch dispatch) {
		return dispatch.attempts() > 0 && dispatch.attempts() <= retries && !exchange.getResponse().isCommitted();
	}

	/** Failures that happen before the upstream has sent any response, so the request can safely move. */
	public static boolean isConnectFailure(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof ConnectException || cause instanceof ConnectTimeoutException
					|| cause instanceof PrematureCloseException || cause instanceof AbortedException) {
				return true;
			}
		}
		return false;
	}
}
