package io.infergate.bench.quality.live;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One thread on which a live replay sends its requests and does its counting at wall-clock instants, so the HTTP
 * client's threads only hand it the end of each response. A failure of any action ends the replay with it.
 */
final class LiveScheduler {

	private final ScheduledExecutorService scheduler;

	private final CompletableFuture<Void> done = new CompletableFuture<>();

	LiveScheduler(String name) {
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, name);
			thread.setDaemon(true);
			return thread;
		});
	}

	/** Runs {@code action} on the scheduler thread at {@code dueNanos} ({@link System#nanoTime()}). */
	void at(long dueNanos, Runnable action) {
		scheduler.schedule(() -> {
			try {
				action.run();
			}
			catch (RuntimeException | Error ex) {
				done.completeExceptionally(ex);
			}
		}, Math.max(0, dueNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
	}

	/** Ends the wait of {@link #await()}: everything was sent and has ended. */
	void finish() {
		done.complete(null);
	}

	/** Waits until {@link #finish()} or a failed action, then stops the thread. */
	void await() throws IOException, InterruptedException {
		try {
			done.get();
		}
		catch (ExecutionException ex) {
			Throwable failure = ex.getCause();
			if (failure instanceof UncheckedIOException io) {
				throw io.getCause();
			}
			throw (failure instanceof RuntimeException runtime) ? runtime : new IllegalStateException(failure);
		}
		finally {
			scheduler.shutdownNow();
		}
	}
}
