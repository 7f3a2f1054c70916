package io.infergate.routing.prefix;

import java.util.ArrayDeque;

/** Small slot numbers for endpoints in a {@link BlockTable}, reused after a purge so holder bit sets stay narrow. */
final class EndpointSlots {

	private final ArrayDeque<Integer> free = new ArrayDeque<>();

	private int next;

	synchronized int acquire() {
		Integer reused = free.pollFirst();
		return (reused != null) ? reused : next++;
	}

	synchronized void release(int slot) {
		free.addFirst(slot);
	}
}
