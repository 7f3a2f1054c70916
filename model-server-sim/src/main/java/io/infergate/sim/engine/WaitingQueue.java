package io.infergate.sim.engine;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * An engine's queue of waiting requests, as vLLM V1's {@code RequestQueue}: under {@link SchedulingPolicy#FCFS} a
 * deque in arrival order whose head a preempted request rejoins, under {@link SchedulingPolicy#PRIORITY} a heap
 * ordered by {@link #PRIORITY_ORDER}, where "rejoining the head" means taking the place that order gives. Taking
 * the head is O(1) or O(log n); removing an arbitrary request (an abort) is O(n), as in vLLM.
 */
abstract class WaitingQueue {

	/**
	 * Effective priority, then arrival time, then engine request id, lowest first: the order vLLM's
	 * {@code Request.__lt__} gives (its last tie-breaker is the request id string; here the submission sequence).
	 */
	static final Comparator<EngineRequest> PRIORITY_ORDER = Comparator
		.comparingLong((EngineRequest request) -> request.effectivePriority)
		.thenComparingLong((request) -> request.arrivalMicros)
		.thenComparingLong((request) -> request.id);

	static WaitingQueue create(SchedulingPolicy policy) {
		return (policy == SchedulingPolicy.PRIORITY) ? new ByPriority() : new FirstComeFirstServed();
	}

	/** Queues a newly submitted request. */
	abstract void add(EngineRequest request);

	/** Puts back a preempted or skipped request, ahead of the requests that came after it. */
	abstract void prepend(EngineRequest request);

	/**
	 * Puts back requests taken from the head in the order they were taken, so that they keep their places; empties
	 * {@code requests}.
	 */
	abstract void prependAll(ArrayDeque<EngineRequest> requests);

	/** The request to admit next, or null. */
	abstract EngineRequest peek();

	/** Takes the request to admit next. */
	abstract EngineRequest poll();

	abstract void remove(EngineRequest request);

	abstract int size();

	abstract boolean isEmpty();

	private static final class FirstComeFirstServed extends WaitingQueue {

		private final ArrayDeque<EngineRequest> requests = new ArrayDeque<>();

		@Override
		void add(EngineRequest request) {
			this.requests.addLast(request);
		}

		@Override
		void prepend(EngineRequest request) {
			this.requests.addFirst(request);
		}

		@Override
		void prependAll(ArrayDeque<EngineRequest> taken) {
			while (!taken.isEmpty()) {
				this.requests.addFirst(taken.pollLast());
			}
		}

		@Override
		EngineRequest peek() {
			return this.requests.peekFirst();
		}

		@Override
		EngineRequest poll() {
			return this.requests.pollFirst();
		}

		@Override
		void remove(EngineRequest request) {
			this.requests.remove(request);
		}

		@Override
		int size() {
			return this.requests.size();
		}

		@Override
		boolean isEmpty() {
			return this.requests.isEmpty();
		}
	}

	private static final class ByPriority extends WaitingQueue {

		private final PriorityQueue<EngineRequest> requests = new PriorityQueue<>(PRIORITY_ORDER);

		@Override
		void add(EngineRequest request) {
			this.requests.add(request);
		}

		@Override
		void prepend(EngineRequest request) {
			this.requests.add(request);
		}

		@Override
		void prependAll(ArrayDeque<EngineRequest> taken) {
			while (!taken.isEmpty()) {
				this.requests.add(taken.pollFirst());
			}
		}

		@Override
		EngineRequest peek() {
			return this.requests.peek();
		}

		@Override
		EngineRequest poll() {
			return this.requests.poll();
		}

		@Override
		void remove(EngineRequest request) {
			this.requests.remove(request);
		}

		@Override
		int size() {
			return this.requests.size();
		}

		@Override
		boolean isEmpty() {
			return this.requests.isEmpty();
		}
	}
}
