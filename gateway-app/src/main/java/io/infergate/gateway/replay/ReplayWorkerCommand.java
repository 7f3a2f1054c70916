package io.infergate.gateway.replay;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

import io.infergate.bench.quality.replay.Replay;
import io.infergate.bench.quality.replay.RunResult;
import io.infergate.bench.quality.report.Figures;
import io.infergate.bench.quality.trace.Trace;
import io.infergate.bench.quality.trace.TraceException;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.gateway.command.GatewayCommand;

/**
 * {@code replay-worker JOB}: one dashboard replay run, in the process the gateway starts for it
 * ({@link ReplayProcess}), never in the gateway's own. It copies the window's captured lines ({@link WindowSnapshot}),
 * reads them as a trace, and replays it once per choice in turn on the bench's default cluster, keeping the whole
 * process (JIT and garbage collector included) to the job's share of one core ({@link DutyCycle}).
 * <p>
 * It tells the gateway how it goes in lines on standard output, one fact per line: {@code trace <description>},
 * {@code total <requests>}, {@code done <requests>} (at most every {@value #PROGRESS_MILLIS} ms, and after each
 * choice), {@code figures <p50> <p90> <p99> <req/s> <output tok/s> <hit rate> <failed> <rejected>} per choice, and
 * {@code failed <why>} when the run cannot go on. Everything else it would print goes to standard error. It stops
 * as soon as its standard input closes, so a gateway that is gone leaves no replay behind.
 */
public final class ReplayWorkerCommand implements GatewayCommand {

	public static final String NAME = "replay-worker";

	static final long PROGRESS_MILLIS = 200;

	/** Exit code of a run that failed and said why. */
	static final int FAILED = 1;

	/** Exit code when the gateway that started the process is gone. */
	static final int ORPHANED = 4;

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public String description() {
		return "runs one dashboard replay; the gateway starts it, in a process of its own";
	}

	@Override
	public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
		if (args.size() != 1) {
			err.println(NAME + ": give the job file");
			return 2;
		}
		// the lines on standard output are the gateway's to read: nothing else may print there
		System.setOut(err);
		quietLogging();
		exitWhenClosed(in);
		ReplayJob job;
		try {
			job = ReplayJob.read(Path.of(args.get(0)));
		}
		catch (IOException | RuntimeException ex) {
			out.println("failed cannot read the job: " + ex.getMessage());
			return FAILED;
		}
		try {
			replay(job, out);
			return 0;
		}
		catch (TraceException ex) {
			say(out, "failed " + ex.getMessage());
			return FAILED;
		}
		catch (IOException | RuntimeException ex) {
			say(out, "failed " + problem(ex));
			return FAILED;
		}
	}

	private static void replay(ReplayJob job, PrintStream out) throws IOException {
		AtomicLong done = new AtomicLong();
		long[] lastSaidAt = { System.nanoTime() };
		DutyCycle dutyCycle = new DutyCycle(job.cpuShare(), job.yieldAbove(),
				new MachineLoad(DutyCycle::processCpuNanos)::othersBusy, DutyCycle::processCpuNanos, () -> {
			long requests = done.incrementAndGet();
			long now = System.nanoTime();
			if (now - lastSaidAt[0] >= PROGRESS_MILLIS * 1_000_000) {
				lastSaidAt[0] = now;
				say(out, "done " + requests);
			}
		});
		Trace trace = read(job, dutyCycle);
		say(out, "trace " + String.format(Locale.ROOT, "%,d routed requests from %d capture file%s, arriving over %.1f s",
				trace.size(), job.files().size(), (job.files().size() == 1) ? "" : "s", trace.spanMicros() / 1e6));
		Workload workload = trace.workload(Trace.DEFAULT_CLUSTER, 0, null);
		say(out, "total " + (long) workload.totalRequests() * job.choices().size());
		for (ReplayJob.Choice choice : job.choices()) {
			// each replay starts an engine context: not while the machine is busy
			dutyCycle.pace();
			RunResult result = new Replay(workload, choice.profile(), Double.NaN, dutyCycle).hosted(choice.engine())
				.run();
			Figures figures = Figures.of(result);
			say(out, "done " + done.get());
			say(out, String.format(Locale.ROOT, "figures %s %s %s %s %s %s %d %d", figures.ttftP50Ms(),
					figures.ttftP90Ms(), figures.ttftP99Ms(), figures.requestsPerSec(), figures.outputTokensPerSec(),
					figures.prefixHitRate(), figures.failed(), figures.rejected()));
		}
	}

	/** The window's trace, read from a copy of its lines that is gone once read. */
	private static Trace read(ReplayJob job, DutyCycle dutyCycle) throws IOException {
		Path directory = Files.createTempDirectory("infergate-replay-");
		Path copy = directory.resolve("window.jsonl.gz");
		try {
			WindowSnapshot.write(job.files(), job.fromMs(), job.toMs(), copy, dutyCycle::pace);
			try {
				return Trace.read(copy, 1.0, job.fromMs(), job.toMs(), job.maxRequests());
			}
			catch (TraceException ex) {
				throw new TraceException(ex.getMessage().contains("routed requests in the window")
						? "the window holds more than " + job.maxRequests() + " routed requests (infergate.management."
								+ "dashboard.replay.max-requests): narrow it"
						: ex.getMessage().replace(copy.toString(), "the window's copy"));
			}
		}
		finally {
			Files.deleteIfExists(copy);
			Files.deleteIfExists(directory);
		}
	}

	private static void say(PrintStream out, String line) {
		synchronized (out) {
			out.println(line.replace('\n', ' '));
			out.flush();
		}
	}

	private static String problem(Throwable ex) {
		Throwable cause = ex;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		String message = (cause.getMessage() != null) ? cause.getMessage() : cause.getClass().getSimpleName();
		return (cause instanceof UncheckedIOException || cause instanceof IOException)
				? "cannot read the capture: " + message : message;
	}

	/** The replay's engine logs as a gateway's does; in this process only its warnings and errors matter. */
	private static void quietLogging() {
		if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
			context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
		}
	}

	private static void exitWhenClosed(InputStream in) {
		Thread watcher = new Thread(() -> {
			try {
				while (in.read() >= 0) {
					// the gateway never writes; the stream only ends
				}
			}
			catch (IOException ex) {
				// closed all the same
			}
			Runtime.getRuntime().halt(ORPHANED);
		}, "infergate-replay-parent");
		watcher.setDaemon(true);
		watcher.start();
	}
}
