package io.infergate.sim.engine;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.Queue;

/**
 * An engine's queue of waiting requests, as vLLM V1's {@code RequestQueue}: under {@link SchedulingPolicy#FCFS} a
 * deque in arrival order whose head a preempted request rejoins, under {@link SchedulingPolicy#PRIORITY} a heap
 * ordered by {@link #PRIORITY_ORDER}, where "rejoining the head" means taking the place that order gives. Taking
 * the head is O(1) or O(log n); removing an arbitrary request (an abort) is O(n), as in vLLM.
 */
final class WaitingQueue {

	/**
	 * Effective priority, then arrival time, then engine request id, lowest first: the order vLLM's
	 * {@code Request.__lt__} gives (its last tie-breaker is the request id string; here the submission sequence).
	 */
	static final Comparator<EngineRequest> PRIORITY_ORDER = Comparator
		.comparingLong((EngineRequest request) -> request.effectivePriority)
		.thenComparingLong((request) -> request.arrivalMicros)
		.thenComparingLong((request) -> request.id);

	/** A deque in arrival order (first come, first served), or a heap in {@link #PRIORITY_ORDER}. */
	private final Queue<EngineRequest> requests;

	/** The deque, or null when the queue is a heap. */
	private final ArrayDeque<EngineRequest> arrivalOrder;

	private WaitingQueue(SchedulingPolicy policy) {
		this.arrivalOrder = (policy == SchedulingPolicy.PRIORITY) ? null : new ArrayDeque<>();
		this.requests = (this.arrivalOrder != null) ? this.arrivalOrder : new PriorityQueue<>(PRIORITY_ORDER);
	}

	static WaitingQueue create(SchedulingPolicy policy) {
		return new WaitingQueue(policy);
	}

	/** Queues a newly submitted request. */
	void add(EngineRequest request) {
		this.requests.add(request);
	}

	/** Puts back a preempted or skipped request, ahead of the requests that came after it. */
	void prepend(EngineRequest request) {
		if (this.arrivalOrder != null) {
			this.arrivalOrder.addFirst(request);
		}
		else {
			this.requests.add(request);
		}
	}

	/**
	 * Puts back requests taken from the head in the order they were taken, so that they keep their places; empties
	 * {@code taken}.
	 */
	void prependAll(ArrayDeque<EngineRequest> taken) {
		while (!taken.isEmpty()) {
			prepend(taken.pollLast());
		}
	}

	/** The request to admit next, or null. */
	EngineRequest peek() {
		return this.requests.peek();
	}

	/** Takes the request to admit next. */
	EngineRequest poll() {
		return this.requests.poll();
	}

	void remove(EngineRequest request) {
		this.requests.remove(request);
	}

	int size() {
		return this.requests.size();
	}

	boolean isEmpty() {
		return this.requests.isEmpty();
	}
}
