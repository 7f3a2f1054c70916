package io.infergate.gateway.capture;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

import io.infergate.routing.prefix.PrefixHasher;

/**
 * The traffic capture: takes one {@link CapturedRequest} per sampled inference request and writes it, anonymized
 * ({@link CaptureLine}), from one writer thread. The request path only decides the sample and offers the record to
 * a bounded queue; a record that finds the queue full is dropped. Each record is counted in {@value #RECORDS} with
 * {@code outcome} {@code written}, {@code dropped} (queue full) or {@code failed} (the write failed).
 * <p>
 * The secret that keys every hash is 32 bytes from {@link SecureRandom}, drawn when the capture starts and held only
 * in memory, so hashes can be compared within one capture and never across two. A write that fails stops the
 * capture with one error logged; requests are never failed or slowed by it. Stopping (a graceful shutdown) writes
 * what is queued and closes the current file, after the web server has stopped taking requests.
 */
public final class TrafficCapture implements SmartLifecycle {

	public static final String RECORDS = "infergate.capture.records";

	/** After the web server's graceful shutdown and stop, so requests still in flight are captured. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private static final Log log = LogFactory.getLog(TrafficCapture.class);

	/** The longest a written record waits for a flush, and the shortest time between two flushes. */
	private static final long FLUSH_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** How long the writer sleeps when it finds the queue empty. */
	private static final long DRAIN_INTERVAL_MILLIS = 20;

	/** Records taken from the queue at a time. */
	private static final int BATCH = 1024;

	private final CaptureFiles files;

	private final double sampleRatio;

	private final PrefixHasher hasher;

	private final BlockingQueue<CapturedRequest> queue;

	private final Counter written;

	private final Counter dropped;

	private final Counter failed;

	private volatile boolean running;

	private volatile boolean broken;

	private Thread writer;

	TrafficCapture(CaptureFiles files, double sampleRatio, int queueCapacity, PrefixHasher hasher,
			MeterRegistry registry) {
		this.files = files;
		this.sampleRatio = sampleRatio;
		this.hasher = hasher;
		this.queue = new ArrayBlockingQueue<>(queueCapacity);
		this.written = counter(registry, "written");
		this.dropped = counter(registry, "dropped");
		this.failed = counter(registry, "failed");
	}

	private static Counter counter(MeterRegistry registry, String outcome) {
		return Counter.builder(RECORDS)
			.description("Inference requests sampled for traffic capture, by what became of their record")
			.tag("outcome", outcome)
			.register(registry);
	}

	/** Whether to capture the request now ending: drawn per request, false once the capture has stopped. */
	public boolean sample() {
		return running && !broken
				&& (sampleRatio >= 1.0 || ThreadLocalRandom.current().nextDouble() < sampleRatio);
	}

	/** Queues the record for writing, or drops and counts it when the queue is full; never blocks. */
	public void offer(CapturedRequest request) {
		if (!broken && !queue.offer(request)) {
			dropped.increment();
		}
	}

	@Override
	public synchronized void start() {
		if (running) {
			return;
		}
		byte[] secret = new byte[32];
		new SecureRandom().nextBytes(secret);
		CaptureLine lines = new CaptureLine(secret, hasher);
		running = true;
		writer = new Thread(() -> write(lines), "infergate-capture");
		writer.setDaemon(true);
		writer.start();
	}

	@Override
	public synchronized void stop() {
		if (!running) {
			return;
		}
		running = false;
		try {
			writer.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public boolean isRunning() {
		return running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	private void write(CaptureLine lines) {
		List<CapturedRequest> batch = new ArrayList<>(BATCH);
		int done = 0;
		try {
			boolean unflushed = false;
			long flushedNanos = System.nanoTime();
			while (running || !queue.isEmpty()) {
				// the writer takes what has queued every few milliseconds rather than waking for each record
				if (queue.drainTo(batch, BATCH) == 0) {
					if (unflushed && System.nanoTime() - flushedNanos >= FLUSH_INTERVAL_NANOS) {
						files.flush();
						unflushed = false;
						flushedNanos = System.nanoTime();
					}
					files.closeIfExpired();
					Thread.sleep(DRAIN_INTERVAL_MILLIS);
					continue;
				}
				for (done = 0; done < batch.size(); done++) {
					files.write(lines.line(batch.get(done)));
					written.increment();
				}
				batch.clear();
				done = 0;
				unflushed = true;
				// a sync flush costs a deflate block and a write: under steady traffic, at most one a second
				if (System.nanoTime() - flushedNanos >= FLUSH_INTERVAL_NANOS) {
					files.flush();
					unflushed = false;
					flushedNanos = System.nanoTime();
				}
			}
			files.close();
		}
		catch (IOException | RuntimeException ex) {
			broken = true;
			failed.increment(batch.size() - done + queue.size());
			queue.clear();
			log.error("Traffic capture stopped: writing a capture file failed: " + ex);
			try {
				files.close();
			}
			catch (IOException ignored) {
				// the file is already unusable; the error above says so
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}
}
