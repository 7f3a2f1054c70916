package io.infergate.sim.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * LoRA adapter slots on the GPU. An adapter is loaded on demand when a request for it reaches the head of the
 * scheduler; loading takes {@code loadDelayMicros}. A load needs a free slot, or else an idle loaded adapter (no
 * running requests) to evict, least recently used first; while every slot holds an adapter with running
 * requests, requests for other adapters wait. Also tracks which adapters have running and waiting requests, for
 * {@code vllm:lora_requests_info}.
 */
final class LoraSlots {

	private final int maxLoras;

	private final long loadDelayMicros;

	/** Loaded or loading adapters and the engine time they become usable. */
	private final Map<String, Long> readyAtMicrosByAdapter = new LinkedHashMap<>();

	private final Map<String, Long> lastUsedMicrosByAdapter = new LinkedHashMap<>();

	private final TreeMap<String, Integer> runningCounts = new TreeMap<>();

	private final TreeMap<String, Integer> waitingCounts = new TreeMap<>();

	private long changedAtMicros;

	LoraSlots(int maxLoras, long loadDelayMicros) {
		this.maxLoras = maxLoras;
		this.loadDelayMicros = loadDelayMicros;
	}

	/**
	 * Whether {@code adapter} is usable at {@code nowMicros}, starting its load when a slot is free or an idle
	 * adapter can be evicted.
	 */
	boolean ensureReady(String adapter, long nowMicros) {
		Long readyAt = this.readyAtMicrosByAdapter.get(adapter);
		if (readyAt == null) {
			if (this.readyAtMicrosByAdapter.size() >= this.maxLoras && !evictIdle(nowMicros)) {
				return false;
			}
			readyAt = nowMicros + this.loadDelayMicros;
			this.readyAtMicrosByAdapter.put(adapter, readyAt);
			this.lastUsedMicrosByAdapter.put(adapter, nowMicros);
		}
		return readyAt <= nowMicros;
	}

	private boolean evictIdle(long nowMicros) {
		String victim = null;
		long victimLastUsed = Long.MAX_VALUE;
		for (Map.Entry<String, Long> entry : this.readyAtMicrosByAdapter.entrySet()) {
			String adapter = entry.getKey();
			boolean idle = entry.getValue() <= nowMicros && !this.runningCounts.containsKey(adapter);
			long lastUsed = this.lastUsedMicrosByAdapter.get(adapter);
			if (idle && lastUsed < victimLastUsed) {
				victim = adapter;
				victimLastUsed = lastUsed;
			}
		}
		if (victim == null) {
			return false;
		}
		this.readyAtMicrosByAdapter.remove(victim);
		this.lastUsedMicrosByAdapter.remove(victim);
		return true;
	}

	/** Earliest load completion after {@code nowMicros}, or {@link Long#MAX_VALUE}. */
	long nextReadyMicros(long nowMicros) {
		long next = Long.MAX_VALUE;
		for (long readyAt : this.readyAtMicrosByAdapter.values()) {
			if (readyAt > nowMicros && readyAt < next) {
				next = readyAt;
			}
		}
		return next;
	}

	List<String> loadedAdapters() {
		return new ArrayList<>(this.readyAtMicrosByAdapter.keySet());
	}

	void waitingAdded(String adapter, long nowMicros) {
		increment(this.waitingCounts, adapter, nowMicros);
	}

	void waitingRemoved(String adapter, long nowMicros) {
		decrement(this.waitingCounts, adapter, nowMicros);
	}

	void runningAdded(String adapter, long nowMicros) {
		increment(this.runningCounts, adapter, nowMicros);
		this.lastUsedMicrosByAdapter.put(adapter, nowMicros);
	}

	void runningRemoved(String adapter, long nowMicros) {
		decrement(this.runningCounts, adapter, nowMicros);
		this.lastUsedMicrosByAdapter.computeIfPresent(adapter, (name, lastUsed) -> nowMicros);
	}

	List<String> runningAdapters() {
		return List.copyOf(this.runningCounts.keySet());
	}

	List<String> waitingAdapters() {
		return List.copyOf(this.waitingCounts.keySet());
	}

	/** Engine time the running or waiting adapter sets last changed. */
	long changedAtMicros() {
		return this.changedAtMicros;
	}

	private void increment(Map<String, Integer> counts, String adapter, long nowMicros) {
		if (counts.merge(adapter, 1, Integer::sum) == 1) {
			this.changedAtMicros = nowMicros;
		}
	}

	private void decrement(Map<String, Integer> counts, String adapter, long nowMicros) {
		if (counts.merge(adapter, -1, Integer::sum) == 0) {
			counts.remove(adapter);
			this.changedAtMicros = nowMicros;
		}
	}
}
