package io.infergate.sim.engine;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A simulated engine in wall-clock time: the scheduler loop runs on its own thread and sleeps each step's time
 * divided by {@code timeScale} (2 runs twice as fast as the modelled GPU). Engine time is wall time since start
 * multiplied by {@code timeScale}, so latencies in the metrics are those of the modelled hardware. The thread
 * waits without spinning while the engine is idle. Other threads submit, abort and read metrics; listener calls
 * come from the engine thread.
 */
public final class WallClockEngine implements AutoCloseable {

	private final EngineCore core;

	private final double timeScale;

	private final String threadName;

	private final Object lock = new Object();

	private long startNanos;

	private double epochStartSeconds;

	private long earliestStepStartMicros;

	private Thread thread;

	private volatile boolean closed;

	public WallClockEngine(EngineConfig config, double timeScale, EngineEventListener listener, String threadName) {
		this(config, timeScale, listener, threadName, KvEventSink.NONE);
	}

	/**
	 * @param kvEventSink receives the engine's KV-cache events on the engine thread, one batch per step that changed
	 * the prefix cache; batch timestamps are epoch seconds of engine time
	 */
	public WallClockEngine(EngineConfig config, double timeScale, EngineEventListener listener, String threadName,
			KvEventSink kvEventSink) {
		if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
			throw new IllegalArgumentException("time-scale must be a positive number, was " + timeScale);
		}
		this.core = new EngineCore(config, listener, kvEventSink,
				(micros) -> this.epochStartSeconds + micros / 1e6 / timeScale);
		this.timeScale = timeScale;
		this.threadName = threadName;
		this.startNanos = System.nanoTime();
		this.epochStartSeconds = System.currentTimeMillis() / 1000.0;
	}

	public EngineConfig config() {
		return this.core.config();
	}

	public synchronized void start() {
		if (this.thread != null) {
			throw new IllegalStateException("already started");
		}
		this.startNanos = System.nanoTime();
		this.epochStartSeconds = System.currentTimeMillis() / 1000.0;
		this.thread = new Thread(this::runLoop, this.threadName);
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/** Engine time, µs: wall time since start × time scale. */
	public long nowMicros() {
		return (long) ((System.nanoTime() - this.startNanos) / 1000.0 * this.timeScale);
	}

	/** Why {@link #submit} would refuse such a request, in vLLM's words, or null. */
	public String rejectionReason(int numPromptTokens, int maxTokens, String adapter) {
		return this.core.rejectionReason(numPromptTokens, maxTokens, adapter);
	}

	/**
	 * The same for a request with this priority: an engine that does not schedule by priority refuses any but 0
	 * under vLLM's convention.
	 */
	public String rejectionReason(int numPromptTokens, int maxTokens, String adapter, int priority) {
		return this.core.rejectionReason(numPromptTokens, maxTokens, adapter, priority);
	}

	/** @throws IllegalArgumentException if the engine refuses the request */
	public EngineRequest submit(EngineRequest request) {
		return submitAll(List.of(request)).get(0);
	}

	/** Submits the requests at one instant, so that the same step sees them all. */
	public List<EngineRequest> submitAll(List<EngineRequest> requests) {
		synchronized (this.lock) {
			long now = nowMicros();
			for (EngineRequest request : requests) {
				this.core.submit(request, now);
			}
			this.earliestStepStartMicros = 0;
			this.lock.notifyAll();
		}
		return requests;
	}

	public void abort(EngineRequest request) {
		synchronized (this.lock) {
			this.core.abort(request, nowMicros());
		}
	}

	public MetricsSnapshot metrics() {
		synchronized (this.lock) {
			return this.core.snapshot(micros -> this.epochStartSeconds + micros / 1e6 / this.timeScale);
		}
	}

	/** See {@link VirtualTimeEngine#cachedPrefixTokens(int[], String)}. */
	public int cachedPrefixTokens(int[] promptTokens, String adapter) {
		synchronized (this.lock) {
			return this.core.cachedPrefixTokens(promptTokens, adapter);
		}
	}

	/** See {@link VirtualTimeEngine#resetPrefixCache()}. */
	public boolean resetPrefixCache() {
		synchronized (this.lock) {
			return this.core.resetPrefixCache(nowMicros());
		}
	}

	public List<String> loadedAdapters() {
		synchronized (this.lock) {
			return this.core.loadedAdapters();
		}
	}

	private void runLoop() {
		try {
			while (!this.closed) {
				long startMicros;
				long stepMicros;
				synchronized (this.lock) {
					while (true) {
						if (this.closed) {
							return;
						}
						long now = nowMicros();
						if (this.core.hasWork() && now >= this.earliestStepStartMicros) {
							stepMicros = this.core.beginStep(now);
							if (stepMicros >= 0) {
								startMicros = now;
								break;
							}
							this.earliestStepStartMicros = this.core.nextTimedEventMicros(now);
							continue;
						}
						waitForWork(now);
					}
				}
				// Sleep outside the lock so that requests can arrive during the step.
				sleepUntil(startMicros + stepMicros);
				synchronized (this.lock) {
					long end = Math.max(nowMicros(), startMicros + stepMicros);
					this.core.finishStep(end);
					this.earliestStepStartMicros = end;
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void waitForWork(long nowMicros) throws InterruptedException {
		if (!this.core.hasWork() || this.earliestStepStartMicros == Long.MAX_VALUE) {
			this.lock.wait();
			return;
		}
		long waitNanos = (long) ((this.earliestStepStartMicros - nowMicros) * 1000 / this.timeScale);
		TimeUnit.NANOSECONDS.timedWait(this.lock, Math.max(waitNanos, 100_000));
	}

	private void sleepUntil(long engineMicros) throws InterruptedException {
		while (true) {
			long remainingNanos = (long) ((engineMicros - nowMicros()) * 1000 / this.timeScale);
			if (remainingNanos <= 0) {
				return;
			}
			LockSupport.parkNanos(remainingNanos);
			if (Thread.interrupted() || this.closed) {
				throw new InterruptedException();
			}
		}
	}

	/** Stops the engine thread; requests still queued or running are left as they are. */
	@Override
	public void close() {
		this.closed = true;
		Thread engineThread;
		synchronized (this) {
			engineThread = this.thread;
		}
		synchronized (this.lock) {
			this.lock.notifyAll();
		}
		if (engineThread != null) {
			engineThread.interrupt();
			try {
				engineThread.join(5000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}
}
