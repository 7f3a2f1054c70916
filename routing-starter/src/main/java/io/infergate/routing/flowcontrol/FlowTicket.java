package io.infergate.routing.flowcontrol;

import java.util.concurrent.CompletableFuture;

import io.infergate.routing.pool.EnginePriority;

/**
 * One request's place in flow control, from {@link FlowController#enqueue} to its end. Its {@link #decision()}
 * completes once, when the request is dispatched or rejected; a dispatched request holds its pool's capacity until
 * {@link #release}, and a client that goes away calls {@link #cancel()}, which leaves nothing behind in either state.
 */
public final class FlowTicket {

	enum State {

		NEW, QUEUED, DISPATCHED, ENDED
	}

	final PoolQueues queues;

	final PoolQueues.TenantQueue tenant;

	/** Its band: the caller's priority, every sheddable one as {@link FlowController#SHEDDABLE_BAND}. */
	final int priority;

	/** The caller's own priority, which the engine is told. */
	final int callerPriority;

	final long bytes;

	final long estimatedTokens;

	final int promptTokens;

	final long arrivalMillis;

	final long deadlineMillis;

	private final CompletableFuture<FlowDecision> decision = new CompletableFuture<>();

	/** Guarded by the pool's queues. */
	State state = State.NEW;

	/** Set under the pool's lock, completed after it is released, so no client code runs under it. */
	FlowDecision pending;

	/** Its tenant's place among its band's tenants by use of the pool when it was dispatched, 0 (least) to 15. */
	int shareRank;

	FlowTicket(PoolQueues queues, PoolQueues.TenantQueue tenant, int priority, int callerPriority, long bytes,
			long estimatedTokens, int promptTokens, long arrivalMillis, long deadlineMillis) {
		this.queues = queues;
		this.tenant = tenant;
		this.priority = priority;
		this.callerPriority = callerPriority;
		this.bytes = bytes;
		this.estimatedTokens = estimatedTokens;
		this.promptTokens = promptTokens;
		this.arrivalMillis = arrivalMillis;
		this.deadlineMillis = deadlineMillis;
	}

	/** Completes when the request is dispatched or rejected; never exceptionally. */
	public CompletableFuture<FlowDecision> decision() {
		return decision;
	}

	/** The client is gone: a waiting request leaves its queue, a dispatched one releases its capacity. Idempotent. */
	public void cancel() {
		queues.cancel(this);
	}

	/**
	 * The dispatched request ended: frees its capacity, and charges its tenant for what it generated.
	 *
	 * @param usedTokens prompt plus completion tokens the response reported, or -1 when unknown (then the estimate
	 * is charged)
	 */
	public void release(long usedTokens) {
		queues.release(this, usedTokens);
	}

	public String tenant() {
		return tenant.name;
	}

	public int priority() {
		return priority;
	}

	/** The pool the request entered. */
	public String pool() {
		return queues.pool;
	}

	/**
	 * The level the engine is told ({@link EnginePriority#level}): the caller's priority,
	 * refined by its tenant's share rank at dispatch. Read it once the decision has completed.
	 */
	public int engineLevel() {
		return EnginePriority.level(callerPriority, shareRank);
	}

	void complete() {
		FlowDecision result = pending;
		if (result != null) {
			pending = null;
			decision.complete(result);
		}
	}
}
