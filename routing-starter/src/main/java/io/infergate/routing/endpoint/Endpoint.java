package io.infergate.routing.endpoint;

import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One model-server replica in a pool: its address, its latest metrics snapshot, whether it may receive traffic,
 * and the gateway's own count of work it has sent there and not yet seen finish.
 * <p>
 * Scrapers write the snapshot and readiness; the in-flight tracker writes the counts; schedulers only read.
 * Every field is safe to read from any thread without locking.
 */
public final class Endpoint {

	private final EndpointId id;

	private final String pool;

	private final URI baseUri;

	private volatile EndpointSnapshot snapshot;

	private volatile boolean ready;

	private final AtomicInteger inFlightRequests = new AtomicInteger();

	private final AtomicLong inFlightTokens = new AtomicLong();

	public Endpoint(String pool, URI baseUri) {
		this.pool = pool;
		this.baseUri = baseUri;
		this.id = EndpointId.of(baseUri);
	}

	public EndpointId id() {
		return id;
	}

	public String pool() {
		return pool;
	}

	public URI baseUri() {
		return baseUri;
	}

	/** The latest snapshot, or {@code null} before the first successful scrape. */
	public EndpointSnapshot snapshot() {
		return snapshot;
	}

	public void publish(EndpointSnapshot snapshot) {
		this.snapshot = snapshot;
	}

	/** Whether the endpoint may receive traffic: scraped at least once and not failing its scrapes. */
	public boolean isReady() {
		return ready;
	}

	public void setReady(boolean ready) {
		this.ready = ready;
	}

	public int inFlightRequests() {
		return inFlightRequests.get();
	}

	/** Estimated tokens (prompt estimate plus max tokens) of the requests in flight. */
	public long inFlightTokens() {
		return inFlightTokens.get();
	}

	/** Counts a dispatched request; pair every call with {@link #release(long)}. */
	public void acquire(long estimatedTokens) {
		inFlightRequests.incrementAndGet();
		inFlightTokens.addAndGet(estimatedTokens);
	}

	public void release(long estimatedTokens) {
		inFlightRequests.decrementAndGet();
		inFlightTokens.addAndGet(-estimatedTokens);
	}

	@Override
	public String toString() {
		return pool + "/" + id;
	}
}
