package io.infergate.gateway.route;

import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.client.HttpClientResponse;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.error.UpstreamFailures;
import io.infergate.gateway.logging.RepeatedLines;
import io.infergate.routing.RoutingOutcome;
import io.infergate.routing.dispatch.Dispatch;

/**
 * Decides, for every upstream failure before the first byte of the response body, what happens next. It is the one
 * place those decisions are made:
 * <ol>
 * <li><b>Another endpoint of the pool</b>, up to {@code infergate.gateway.retries} times, when the chosen endpoint
 * cannot be reached or answers 502/503. A retry runs the pool routing, the load balancer (which skips endpoints
 * the request already tried) and the HTTP client again, re-sending the cached body.</li>
 * <li><b>The next fallback model</b>, when the request has one left ({@link ModelFallbacks}) and the pool cannot
 * serve it: no endpoint could be chosen (503 from routing), the last endpoint tried answered 429 or any 5xx, could
 * not be reached, or timed out, or it answered 400 with a context-length error (vLLM's "This model's maximum context
 * length is …", SGLang's "… longer than the model's context length …": a 400 body of at most
 * {@value #MAX_INSPECTED_BODY_BYTES} bytes that mentions "context length"). It signals
 * {@link ModelUnavailableException} for {@link ModelFallbackFilter}, which runs the per-model steps again.</li>
 * <li>Otherwise the answer, error or not, goes to the client as the endpoint sent it.</li>
 * </ol>
 * Once the body has started nothing moves: the client may already hold part of the answer.
 */
public class UpstreamRetryFilter implements GatewayFilter {

	private static final Log logger = LogFactory.getLog(UpstreamRetryFilter.class);

	private static final RepeatedLines repeated = new RepeatedLines();

	/** The largest 400 body read to look for a context-length error. */
	static final int MAX_INSPECTED_BODY_BYTES = 64 * 1024;

	private final int retries;

	private final PoolTimeouts timeouts;

	public UpstreamRetryFilter(int retries, PoolTimeouts timeouts) {
		this.retries = retries;
		this.timeouts = timeouts;
	}


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		return attempt(exchange, chain, InferenceContext.find(exchange).dispatch(), null);
	}

	/** @param previous the failure of the attempt this one retries, or {@code null} */
	private Mono<Void> attempt(ServerWebExchange exchange, GatewayFilterChain chain, Dispatch dispatch,
			Throwable previous) {
		Mono<Void> call = chain.filter(exchange);
		Duration firstByte = timeouts.firstByte(dispatch.request().pool());
		if (firstByte != null) {
			// Cancelling the call closes the connection to the silent model server.
			call = call.timeout(firstByte, Mono.error(() -> new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT,
					"no response headers within " + firstByte.toMillis() + " ms")));
		}
		return call.thenReturn(true)
			.onErrorResume((ex) -> afterFailure(exchange, chain, dispatch, ex, previous).thenReturn(false))
			.flatMap((answered) -> answered ? afterAnswer(exchange, chain, dispatch) : Mono.empty());
	}

	/** The endpoint answered with headers; nothing of the body has been read or written. */
	private Mono<Void> afterAnswer(ServerWebExchange exchange, GatewayFilterChain chain, Dispatch dispatch) {
		HttpStatusCode status = exchange.getResponse().getStatusCode();
		if (status == null) {
			return Mono.empty();
		}
		int code = status.value();
		if ((code == 502 || code == 503) && canRetry(exchange, dispatch)) {
			return retry(exchange, chain, dispatch, "answered " + code, null);
		}
		if (!canFallBack(exchange)) {
			return Mono.empty();
		}
		if (code == 429 || status.is5xxServerError()) {
			return fallBack("endpoint " + dispatch.lastEndpoint() + " answered " + code);
		}
		if (code == 400) {
			return fallBackOnContextLengthError(exchange, dispatch);
		}
		return Mono.empty();
	}

	/**
	 * The attempt failed without an answer: the endpoint could not be reached, closed or reset the connection, sent
	 * no headers in time, or no endpoint could be chosen.
	 */
	private Mono<Void> afterFailure(ServerWebExchange exchange, GatewayFilterChain chain, Dispatch dispatch,
			Throwable ex, Throwable previous) {
		if ((UpstreamFailures.beforeResponse(ex) || isTimeout(ex)) && canRetry(exchange, dispatch)) {
			return retry(exchange, chain, dispatch, isTimeout(ex) ? "sent " + ((ResponseStatusException) ex).getReason()
					: "failed (" + ex + ")", ex);
		}
		if (previous != null && isUnrouted(ex, dispatch) && !canFallBack(exchange)) {
			// No other endpoint to retry on: what the client needs to hear is why the last one failed.
			return Mono.error(previous);
		}
		if (canFallBack(exchange)) {
			if (UpstreamFailures.beforeResponse(ex)) {
				return fallBack("endpoint " + dispatch.lastEndpoint() + " failed before answering: " + ex);
			}
			if (ex instanceof ResponseStatusException statusException
					&& statusException.getStatusCode().is5xxServerError()) {
				return fallBack(isUnrouted(ex, dispatch) ? "no endpoint: " + dispatch.lastOutcome().reason()
						: statusException.getStatusCode().value() + " " + statusException.getReason());
			}
		}
		return Mono.error(ex);
	}

	/**
	 * Reads a 400's body, which is small: falls back when it is a context-length error, else writes it to the client
	 * as it came.
	 */
	private Mono<Void> fallBackOnContextLengthError(ServerWebExchange exchange, Dispatch dispatch) {
		Connection connection = exchange.getAttribute(ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR);
		HttpClientResponse upstream = exchange.getAttribute(ServerWebExchangeUtils.CLIENT_RESPONSE_ATTR);
		if (connection == null || upstream == null) {
			return Mono.empty();
		}
		long length = declaredLength(upstream.responseHeaders().get(HttpHeaders.CONTENT_LENGTH));
		if (length < 0 || length > MAX_INSPECTED_BODY_BYTES) {
			return Mono.empty();
		}
		return connection.inbound().receive().aggregate().asByteArray().defaultIfEmpty(new byte[0]).flatMap((body) -> {
			if (isContextLengthError(body)) {
				return fallBack("endpoint " + dispatch.lastEndpoint() + " answered 400: the prompt is longer than "
						+ "its context length");
			}
			exchange.getAttributes().remove(ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR);
			ServerHttpResponse response = exchange.getResponse();
			return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
		});
	}

	private static Mono<Void> fallBack(String why) {
		return Mono.error(new ModelUnavailableException(why));
	}

	/** Whether the attempt failed because routing chose no endpoint. */
	private static boolean isUnrouted(Throwable ex, Dispatch dispatch) {
		RoutingOutcome outcome = dispatch.lastOutcome();
		return ex instanceof ResponseStatusException && outcome != null && !outcome.hasEndpoint();
	}

	private Mono<Void> retry(ServerWebExchange exchange, GatewayFilterChain chain, Dispatch dispatch, String why,
			Throwable failure) {
		if (logger.isInfoEnabled()) {
			String line = repeated.admit("retry", "Endpoint " + dispatch.lastEndpoint() + " " + why
					+ " before any response byte; retrying on another endpoint of pool '" + dispatch.request().pool()
					+ "'");
			if (line != null) {
				logger.info(line);
			}
		}
		FailedAttempts.forget(exchange);
		return attempt(exchange, chain, dispatch, failure);
	}

	private boolean canRetry(ServerWebExchange exchange, Dispatch dispatch) {
		return dispatch.attempts() > 0 && dispatch.attempts() <= retries && !exchange.getResponse().isCommitted();
	}

	private static boolean canFallBack(ServerWebExchange exchange) {
		InferenceContext context = InferenceContext.find(exchange);
		ModelFallbacks fallbacks = (context != null) ? context.fallbacks() : null;
		return fallbacks != null && fallbacks.hasNext() && !exchange.getResponse().isCommitted();
	}

	/** The {@code Content-Length} value, or -1 when absent or not a number. */
	private static long declaredLength(String value) {
		if (value == null) {
			return -1;
		}
		try {
			return Long.parseLong(value.strip());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	/** Whether a 400 body is a model server's context-length error. */
	static boolean isContextLengthError(byte[] body) {
		return new String(body, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT).contains("context length");
	}

	/** No response headers within the pool's first-byte timeout or the HTTP client's response timeout. */
	private static boolean isTimeout(Throwable ex) {
		return ex instanceof ResponseStatusException status && status.getStatusCode().value() == 504;
	}
}
