package io.infergate.bench.quality.replay;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.IntFunction;

import io.infergate.bench.quality.workload.BenchRequest;

/**
 * Builds the requests of a replay ahead of its event loop, on a thread of its own: request i, the prompt text the
 * gateway derives from it and the tokens the engine computes, in index order, at most {@value #AHEAD} ahead. What it
 * builds depends on the index alone, so the replay is the same with it as without it; the event loop only spends
 * less of its time making up prompts. A replay of a capture uses it: a capture's requests are sent about in order.
 */
final class RequestPrefetcher implements AutoCloseable {

	private static final int AHEAD = 512;

	/** One request, built. */
	record Prepared(int index, BenchRequest request, String promptText, int[] engineTokens) {
	}

	private final BlockingQueue<Object> ready = new ArrayBlockingQueue<>(AHEAD);

	private final Thread thread;

	/** Requests built and taken before they were asked for, by index. */
	private final Map<Integer, Prepared> early = new HashMap<>();

	RequestPrefetcher(IntFunction<BenchRequest> requests, int count) {
		this.thread = new Thread(() -> {
			try {
				for (int i = 0; i < count; i++) {
					BenchRequest request = requests.apply(i);
					ready.put(new Prepared(i, request, request.gatewayPromptText(), request.engineTokens()));
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (RuntimeException | Error ex) {
				ready.offer(ex);
			}
		}, "replay-prefetch");
		thread.setDaemon(true);
		thread.start();
	}

	/**
	 * Request {@code index}. Requests may be asked for out of order (a conversation's next turn waits for its previous
	 * one): those built before it are kept until asked for.
	 */
	Prepared get(int index) {
		Prepared prepared = early.remove(index);
		while (prepared == null) {
			Prepared next = next();
			if (next.index() == index) {
				prepared = next;
			}
			else {
				early.put(next.index(), next);
			}
		}
		return prepared;
	}

	private Prepared next() {
		Object next;
		try {
			next = ready.take();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while waiting for the next request", ex);
		}
		if (next instanceof RuntimeException failure) {
			throw failure;
		}
		if (next instanceof Error failure) {
			throw failure;
		}
		return (Prepared) next;
	}

	@Override
	public void close() {
		thread.interrupt();
	}
}
