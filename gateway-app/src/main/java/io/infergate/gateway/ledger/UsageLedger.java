package io.infergate.gateway.ledger;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.TokenUsage;

/**
 * The usage ledger: every request's tokens and cost summed in memory per minute, tenant, key id and model, and
 * written to the database once per {@code flush-interval} as one batch, off the requests' path, on a thread of its
 * own. A request only adds to a map under a short lock; a slow or unreachable database never slows or fails one.
 * <p>
 * While the database cannot be written, batches wait in order and are tried again each interval; beyond
 * {@code buffer-rows} waiting rows the oldest batch is dropped, counted in {@code infergate.usage.ledger.rows.dropped}
 * and logged. A batch's id (this process's random id and a sequence number) is written with it in the same
 * transaction, so a batch sent again after an unacknowledged commit is not counted twice, and no two replicas or
 * restarts share an id. On shutdown what is summed is written (one last try).
 * <p>
 * {@link #unwritten()} is what the usage API adds to the database's sums: the rows not written yet.
 */
public final class UsageLedger implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(UsageLedger.class);

	private final LedgerStore store;

	private final Clock clock;

	private final Duration flushInterval;

	private final int bufferRows;

	private final String currency;

	private final String replica = UUID.randomUUID().toString().substring(0, 13);

	private final Object lock = new Object();

	private Map<UsageRow.Group, long[]> open = new HashMap<>();

	private final Deque<LedgerStore.Batch> pending = new ArrayDeque<>();

	private int pendingRows;

	private long sequence;

	private boolean failing;

	private volatile ScheduledExecutorService writer;

	private final Counter written;

	private final Counter duplicates;

	private final Counter failures;

	private final Counter droppedRows;

	private final Timer writes;

	UsageLedger(LedgerStore store, Clock clock, Duration flushInterval, int bufferRows, String currency,
			MeterRegistry registry) {
		this.store = store;
		this.clock = clock;
		this.flushInterval = flushInterval;
		this.bufferRows = bufferRows;
		this.currency = currency;
		this.written = batches(registry, "written");
		this.duplicates = batches(registry, "duplicate");
		this.failures = batches(registry, "failed");
		this.droppedRows = Counter.builder("infergate.usage.ledger.rows.dropped")
			.description("Usage rows dropped because the database could not be written for longer than the buffer holds")
			.register(registry);
		this.writes = Timer.builder("infergate.usage.ledger.write")
			.description("Writing one batch of usage rows to the database")
			.register(registry);
		Gauge.builder("infergate.usage.ledger.pending.rows", this, UsageLedger::pendingRows)
			.description("Usage rows summed or waiting to be written to the database")
			.register(registry);
	}

	private static Counter batches(MeterRegistry registry, String outcome) {
		return Counter.builder("infergate.usage.ledger.batches")
			.description("Batches of usage rows by outcome: written, duplicate (written before), failed (tried again)")
			.tag("outcome", outcome)
			.register(registry);
	}

	/** This process's id in the ledger's batches. */
	String replica() {
		return replica;
	}

	/**
	 * Adds one request: a request a model server was asked to serve counts in {@code requests}; its tokens and cost in
	 * nano-units count either way.
	 */
	public void record(String tenant, String key, String model, boolean served, TokenUsage usage, long costNanos) {
		if (model == null || (!served && usage.total() == 0 && costNanos == 0)) {
			return;
		}
		UsageRow.Group group = new UsageRow.Group(clock.millis() / 60_000, orAnonymous(tenant), orAnonymous(key),
				model);
		synchronized (lock) {
			long[] sums = open.get(group);
			if (sums == null) {
				sums = new long[5];
				open.put(group, sums);
			}
			sums[0] += served ? 1 : 0;
			sums[1] += usage.inputTokens();
			sums[2] += usage.cachedInputTokens();
			sums[3] += usage.outputTokens();
			sums[4] += costNanos;
		}
	}

	private static String orAnonymous(String value) {
		return (value != null) ? value : Caller.ANONYMOUS;
	}

	/** Rows not in the database yet: summed since the last batch, and batches waiting to be written. */
	List<UsageRow> unwritten() {
		synchronized (lock) {
			List<UsageRow> rows = new ArrayList<>(pendingRows + open.size());
			pending.forEach((batch) -> rows.addAll(batch.rows()));
			open.forEach((group, sums) -> rows.add(row(group, sums)));
			return rows;
		}
	}

	private double pendingRows() {
		synchronized (lock) {
			return pendingRows + open.size();
		}
	}

	private static UsageRow row(UsageRow.Group group, long[] sums) {
		return new UsageRow(group.minute(), group.tenant(), group.key(), group.model(), sums[0], sums[1], sums[2],
				sums[3], sums[4]);
	}

	/** Seals what was summed into a batch and writes the waiting batches, oldest first, until one fails. */
	void flush() {
		seal();
		while (true) {
			LedgerStore.Batch batch;
			synchronized (lock) {
				batch = pending.peekFirst();
			}
			if (batch == null) {
				return;
			}
			try {
				boolean fresh = writes.recordCallable(() -> store.write(batch, replica, currency, clock.millis()));
				(fresh ? written : duplicates).increment();
				synchronized (lock) {
					if (pending.peekFirst() == batch) {
						pending.removeFirst();
						pendingRows -= batch.rows().size();
					}
					if (failing) {
						failing = false;
						logger.info("The usage ledger writes to the database again; " + pendingRows
								+ " rows still wait");
					}
				}
			}
			catch (Exception ex) {
				failures.increment();
				synchronized (lock) {
					if (!failing) {
						failing = true;
						logger.warn("The usage ledger cannot write to the database (" + ex.getMessage() + "); usage "
								+ "waits in memory, up to infergate.usage.ledger.buffer-rows=" + bufferRows
								+ " rows, and is written once it can be");
					}
				}
				return;
			}
		}
	}

	private void seal() {
		synchronized (lock) {
			if (!open.isEmpty()) {
				List<UsageRow> rows = new ArrayList<>(open.size());
				open.forEach((group, sums) -> rows.add(row(group, sums)));
				open = new HashMap<>();
				pending.addLast(new LedgerStore.Batch(replica + "-" + (++sequence), rows));
				pendingRows += rows.size();
			}
			while (pendingRows > bufferRows && pending.size() > 1) {
				LedgerStore.Batch dropped = pending.removeFirst();
				pendingRows -= dropped.rows().size();
				droppedRows.increment(dropped.rows().size());
				logger.warn("The usage ledger dropped a batch of " + dropped.rows().size() + " rows ("
						+ dropped.id() + "): more than infergate.usage.ledger.buffer-rows=" + bufferRows
						+ " rows wait for the database");
			}
		}
	}

	private void prepare() {
		try {
			store.migrate();
		}
		catch (RuntimeException ex) {
			logger.debug("The usage ledger's database is not ready yet (the first batch tries again): " + ex);
		}
	}

	private void flushQuietly() {
		try {
			flush();
		}
		catch (RuntimeException ex) {
			logger.warn("The usage ledger's flush failed: " + ex, ex);
		}
	}

	@Override
	public void start() {
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "infergate-ledger");
			thread.setDaemon(true);
			return thread;
		});
		long interval = flushInterval.toMillis();
		// the schema, and the pool's first connection, before the first batch: off the startup path
		executor.execute(this::prepare);
		executor.scheduleWithFixedDelay(this::flushQuietly, interval, interval, TimeUnit.MILLISECONDS);
		writer = executor;
	}

	/** Writes what is summed, one last try, after the requests have finished. */
	@Override
	public void stop() {
		ScheduledExecutorService executor = writer;
		writer = null;
		if (executor == null) {
			return;
		}
		executor.shutdown();
		try {
			executor.awaitTermination(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		flushQuietly();
		int left;
		synchronized (lock) {
			left = pendingRows;
		}
		if (left > 0) {
			logger.warn("The usage ledger stopped with " + left + " rows it could not write to the database");
		}
	}

	@Override
	public boolean isRunning() {
		return writer != null;
	}

	/** Stops after the web server (which lets the last responses end) and before the data source closes. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 4096;
	}
}
