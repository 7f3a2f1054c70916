package io.infergate.sim.fault;

import java.time.Duration;

/**
 * Faults a simulator can be told to inject, for tests of the gateway's failure handling. All are off until set,
 * and {@link #clear()} turns them all off. Thread-safe.
 * <ul>
 * <li><b>Stalled metrics:</b> each {@code /metrics} request is held until the stall is cleared, or for a given time
 * if one was set (each request waits at most that long).</li>
 * <li><b>Failed generations:</b> the next {@code count} requests for the engine (generations, responses,
 * embeddings, rerank, score) are answered with a given status (e.g. 429, 502, 503) and an OpenAI error body, before
 * any stream byte.</li>
 * <li><b>Aborted streams:</b> every streaming response while set has its connection closed abruptly after
 * {@code chunks} content chunks, without {@code [DONE]} or the closing chunk of the chunked encoding.</li>
 * <li><b>Delayed generations:</b> every generation request while set is held for a given time before it reaches
 * the engine, so its time to first token, and its end, come that much later.</li>
 * <li><b>Reset connections:</b> while set, every request for the engine has its connection reset (TCP RST) before
 * any response byte, as a crashing or restarting server does.</li>
 * <li><b>Frozen generations:</b> while set, every request for the engine is held before any response byte, as in a
 * stopped process, until cleared.</li>
 * <li><b>Stalled streams:</b> while set, every streaming response stops after {@code chunks} content chunks and
 * holds its connection open, sending nothing, until cleared.</li>
 * </ul>
 */
public final class FaultInjector {

	/** The faults in force. {@code metricsStallMillis} is 0 for "until cleared", -1 when metrics are not stalled. */
	public record State(long metricsStallMillis, int failNextGenerations, int failStatus, int abortStreamsAfterChunks,
			long generationDelayMillis, boolean resetConnections, boolean freezeGenerations, int stallStreamsAfterChunks) {
	}

	private long metricsStallMillis = -1;

	private int failNextGenerations;

	private int failStatus = 503;

	private int abortStreamsAfterChunks = -1;

	private long generationDelayMillis;

	private boolean resetConnections;

	private boolean freezeGenerations;

	private int stallStreamsAfterChunks = -1;

	private long generation;

	/** Resets every engine request's connection before any response byte, until cleared. */
	public synchronized void resetConnections(boolean reset) {
		this.resetConnections = reset;
	}

	/** Holds every engine request before any response byte, until cleared. */
	public synchronized void freezeGenerations(boolean freeze) {
		this.freezeGenerations = freeze;
		if (!freeze) {
			release();
		}
	}

	/** Stops every stream after {@code chunks} content chunks, holding its connection silent until cleared. */
	public synchronized void stallStreamsAfterChunks(int chunks) {
		if (chunks < 0) {
			throw new IllegalArgumentException("stallStreamsAfterChunks must not be negative, was " + chunks);
		}
		this.stallStreamsAfterChunks = chunks;
	}

	/** Lets stalled streams go on. */
	public synchronized void resumeStreams() {
		this.stallStreamsAfterChunks = -1;
		release();
	}

	public synchronized boolean resetsConnections() {
		return this.resetConnections;
	}

	/** Content chunks after which a stream starting now goes silent, or -1 to let it run. */
	public synchronized int stallStreamsAfterChunks() {
		return this.stallStreamsAfterChunks;
	}

	/** Blocks an engine request while generations are frozen. */
	public synchronized void awaitUnfrozen() throws InterruptedException {
		while (this.freezeGenerations) {
			wait();
		}
	}

	/** Blocks a stream that reached its stall point until the faults are cleared. */
	public synchronized void awaitStreamRelease() throws InterruptedException {
		while (this.stallStreamsAfterChunks >= 0) {
			wait();
		}
	}

	/** Holds each {@code /metrics} response until {@link #clear()} or {@link #resumeMetrics()}. */
	public synchronized void stallMetrics() {
		this.metricsStallMillis = 0;
	}

	/** Holds each {@code /metrics} response for {@code duration}, until cleared. */
	public synchronized void stallMetrics(Duration duration) {
		if (duration.isNegative() || duration.isZero()) {
			throw new IllegalArgumentException("metrics stall must be positive, was " + duration);
		}
		this.metricsStallMillis = duration.toMillis();
	}

	public synchronized void resumeMetrics() {
		this.metricsStallMillis = -1;
		release();
	}

	/** Wakes every held request; each looks again at the faults in force. */
	private void release() {
		this.generation++;
		notifyAll();
	}

	/** Answers the next {@code count} generation requests with {@code status} before any byte. */
	public synchronized void failNextGenerations(int count, int status) {
		if (count < 0) {
			throw new IllegalArgumentException("failNextRequests must not be negative, was " + count);
		}
		if (status < 400 || status > 599) {
			throw new IllegalArgumentException("failStatus must be an HTTP error status (400-599), was " + status);
		}
		this.failNextGenerations = count;
		this.failStatus = status;
	}

	/** Closes every stream's connection abruptly after {@code chunks} content chunks, until cleared. */
	public synchronized void abortStreamsAfterChunks(int chunks) {
		if (chunks < 0) {
			throw new IllegalArgumentException("abortStreamsAfterChunks must not be negative, was " + chunks);
		}
		this.abortStreamsAfterChunks = chunks;
	}

	/** Holds every generation request for {@code delay} before it reaches the engine, until cleared. */
	public synchronized void delayGenerations(Duration delay) {
		if (delay.isNegative()) {
			throw new IllegalArgumentException("generationDelayMillis must not be negative, was " + delay.toMillis());
		}
		this.generationDelayMillis = delay.toMillis();
	}

	/** How long to hold a generation request starting now before it reaches the engine; 0 for not at all. */
	public synchronized long generationDelayMillis() {
		return this.generationDelayMillis;
	}

	/** Turns every fault off and releases stalled {@code /metrics} requests. */
	public synchronized void clear() {
		this.failNextGenerations = 0;
		this.failStatus = 503;
		this.abortStreamsAfterChunks = -1;
		this.generationDelayMillis = 0;
		this.resetConnections = false;
		this.freezeGenerations = false;
		this.stallStreamsAfterChunks = -1;
		resumeMetrics();
	}

	public synchronized State state() {
		return new State(this.metricsStallMillis, this.failNextGenerations, this.failStatus,
				this.abortStreamsAfterChunks, this.generationDelayMillis, this.resetConnections, this.freezeGenerations,
				this.stallStreamsAfterChunks);
	}

	/** The status to fail this generation request with, consuming one, or 0 to serve it. */
	public synchronized int takeGenerationFailure() {
		if (this.failNextGenerations == 0) {
			return 0;
		}
		this.failNextGenerations--;
		return this.failStatus;
	}

	/** Content chunks after which to abort a stream starting now, or -1 to let it finish. */
	public synchronized int abortStreamsAfterChunks() {
		return this.abortStreamsAfterChunks;
	}

	/** Blocks a {@code /metrics} request while metrics are stalled. */
	public synchronized void awaitMetricsRelease() throws InterruptedException {
		if (this.metricsStallMillis < 0) {
			return;
		}
		long startGeneration = this.generation;
		long deadlineNanos = System.nanoTime() + this.metricsStallMillis * 1_000_000;
		boolean untilCleared = this.metricsStallMillis == 0;
		while (this.generation == startGeneration) {
			if (untilCleared) {
				wait();
			}
			else {
				long remainingMillis = (deadlineNanos - System.nanoTime()) / 1_000_000;
				if (remainingMillis <= 0) {
					return;
				}
				wait(remainingMillis);
			}
		}
	}
}
