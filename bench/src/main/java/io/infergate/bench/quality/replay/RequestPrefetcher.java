package io.infergate.bench.quality.replay;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.IntFunction;

import io.infergate.bench.quality.workload.BenchRequest;

/**
 * Builds the requests of a replay ahead of its event loop, on a thread of its own: request i, the prompt text the
 * gateway derives from it and the tokens the engine computes, in index order, at most {@value #AHEAD} ahead. What it
 * builds depends on the index alone, so the replay is the same with it as without it; the event loop only spends
 * less of its time making up prompts. A replay of a capture uses it: a capture's requests come strictly in order.
 */
final class RequestPrefetcher implements AutoCloseable {

	private static final int AHEAD = 512;

	/** One request, built. */
	record Prepared(BenchRequest request, String promptText, int[] engineTokens) {
	}

	private final BlockingQueue<Object> ready = new ArrayBlockingQueue<>(AHEAD);

	private final Thread thread;

	RequestPrefetcher(IntFunction<BenchRequest> requests, int count) {
		this.thread = new Thread(() -> {
			try {
				for (int i = 0; i < count; i++) {
					BenchRequest request = requests.apply(i);
					ready.put(new Prepared(request, request.gatewayPromptText(), request.engineTokens()));
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

	/** The next request, in index order. */
	Prepared next() {
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
