package io.infergate.gateway.route;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The stream-idle limit of one streamed response: one deadline per stream, not a timer per event. Each event moves
 * the deadline with one clock read and one field write; a single scheduled check runs when the deadline could have
 * passed, finds it moved and waits for the rest, or finds the stream silent for the whole limit and signals
 * {@link #expiry}.
 */
final class StreamIdleDeadline {

	private static final int RUNNING = 0;

	private static final int FINISHED = 1;

	private static final int EXPIRED = 2;

	private final long timeoutNanos;

	private final Scheduler scheduler;

	private final LongSupplier clock;

	private final AtomicInteger state = new AtomicInteger(RUNNING);

	private volatile long lastEventNanos;

	StreamIdleDeadline(Duration timeout, Scheduler scheduler) {
		this(timeout, scheduler, System::nanoTime);
	}

	/** @param clock nanoseconds, on the clock {@code scheduler} keeps its delays by */
	StreamIdleDeadline(Duration timeout, Scheduler scheduler, LongSupplier clock) {
		this.timeoutNanos = timeout.toNanos();
		this.scheduler = scheduler;
		this.clock = clock;
	}

	/** An event arrived: the stream is not idle. */
	void touch() {
		lastEventNanos = clock.getAsLong();
	}

	/** The stream ended: the deadline no longer applies. */
	void finish() {
		state.compareAndSet(RUNNING, FINISHED);
	}

	/** Whether the stream went silent for longer than the limit before it ended. */
	boolean expired() {
		return state.get() == EXPIRED;
	}

	/**
	 * Completes once the stream has been silent for the whole limit, counted from the subscription or the last
	 * event; never if the stream finishes first. Cancelling it cancels the pending check.
	 */
	Mono<Void> expiry() {
		return Mono.create((sink) -> {
			Disposable.Swap pending = Disposables.swap();
			sink.onDispose(pending);
			lastEventNanos = clock.getAsLong();
			Runnable check = new Runnable() {
				@Override
				public void run() {
					if (state.get() != RUNNING) {
						return;
					}
					long idle = clock.getAsLong() - lastEventNanos;
					if (idle < timeoutNanos) {
						pending.update(scheduler.schedule(this, timeoutNanos - idle, TimeUnit.NANOSECONDS));
					}
					else if (state.compareAndSet(RUNNING, EXPIRED)) {
						sink.success();
					}
				}
			};
			pending.update(scheduler.schedule(check, timeoutNanos, TimeUnit.NANOSECONDS));
		});
	}
}
