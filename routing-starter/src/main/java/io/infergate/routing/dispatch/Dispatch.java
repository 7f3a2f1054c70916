package io.infergate.routing.dispatch;

import java.util.ArrayList;
import java.util.List;

import io.infergate.routing.RoutingOutcome;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.request.InferenceRequest;

/**
 * One request's journey through the pool: the endpoints it was sent to, the in-flight count it holds on the
 * current one, and the last routing outcome.
 * <p>
 * In-flight work is counted from {@link #dispatchTo} until {@link #finish()}, which the gateway calls when the
 * response stream ends, errors or is cancelled, not when response headers arrive. A retry moves the count from
 * the failed endpoint to the new one.
 */
public final class Dispatch {

	private final InferenceRequest request;

	private final long estimatedTokens;

	private final List<EndpointId> tried = new ArrayList<>(2);

	private Endpoint current;

	private RoutingOutcome lastOutcome;

	private boolean finished;

	public Dispatch(InferenceRequest request) {
		this.request = request;
		this.estimatedTokens = request.estimatedTotalTokens();
	}

	public InferenceRequest request() {
		return request;
	}

	/** Counts the request in flight on {@code endpoint}, releasing the endpoint it was on before. */
	public synchronized void dispatchTo(Endpoint endpoint) {
		releaseCurrent();
		tried.add(endpoint.id());
		if (finished) {
			return; // the exchange already ended (cancelled while the balancer was choosing)
		}
		endpoint.acquire(estimatedTokens);
		current = endpoint;
	}

	/** Releases the in-flight count. Idempotent. */
	public synchronized void finish() {
		finished = true;
		releaseCurrent();
	}

	private void releaseCurrent() {
		if (current != null) {
			current.release(estimatedTokens);
			current = null;
		}
	}

	/** A copy of the endpoints this request was sent to, in order. */
	public synchronized List<EndpointId> tried() {
		return List.copyOf(tried);
	}

	/** The endpoint the request was last sent to, or {@code null}. */
	public synchronized EndpointId lastEndpoint() {
		return tried.isEmpty() ? null : tried.get(tried.size() - 1);
	}

	public synchronized int attempts() {
		return tried.size();
	}

	public synchronized RoutingOutcome lastOutcome() {
		return lastOutcome;
	}

	public synchronized void recordOutcome(RoutingOutcome outcome) {
		this.lastOutcome = outcome;
	}
}
