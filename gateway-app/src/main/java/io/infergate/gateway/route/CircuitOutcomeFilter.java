package io.infergate.gateway.route;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.endpoint.EndpointId;

/**
 * Records each upstream attempt's outcome in its endpoint's circuit ({@link EndpointCircuits}), once the answer's
 * headers arrive or the attempt fails before them: a 5xx answer or a connection failure (refused, reset, closed
 * before answering) is a failure, any other answer a success. It runs inside the retry step, so every attempt of a
 * request is recorded on the endpoint it went to; an attempt that found no endpoint records nothing. It only
 * observes: the outcome travels on unchanged, and nothing bounds how long a stream may then run.
 */
public class CircuitOutcomeFilter implements GatewayFilter {

	private final EndpointCircuits circuits;

	public CircuitOutcomeFilter(EndpointCircuits circuits) {
		this.circuits = circuits;
	}


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		Dispatch dispatch = InferenceContext.find(exchange).dispatch();
		int attemptsBefore = dispatch.attempts();
		long start = System.nanoTime();
		return chain.filter(exchange).doOnSuccess((done) -> {
			EndpointId endpoint = attempted(dispatch, attemptsBefore);
			HttpStatusCode status = exchange.getResponse().getStatusCode();
			if (endpoint == null || status == null) {
				return;
			}
			long elapsed = System.nanoTime() - start;
			if (status.is5xxServerError()) {
				circuits.recordServerError(endpoint, elapsed, status.value());
			}
			else {
				circuits.recordSuccess(endpoint, elapsed);
			}
		}).doOnError((ex) -> {
			EndpointId endpoint = attempted(dispatch, attemptsBefore);
			if (endpoint == null) {
				return;
			}
			long elapsed = System.nanoTime() - start;
			if (ex instanceof ResponseStatusException status) {
				if (status.getStatusCode().is5xxServerError()) {
					circuits.recordServerError(endpoint, elapsed, status.getStatusCode().value()); // e.g. 504
				}
			}
			else {
				circuits.recordConnectionFailure(endpoint, elapsed, ex);
			}
		});
	}

	/** The endpoint this attempt went to, or {@code null} when it found none. */
	private static EndpointId attempted(Dispatch dispatch, int attemptsBefore) {
		return (dispatch.attempts() > attemptsBefore) ? dispatch.lastEndpoint() : null;
	}
}
