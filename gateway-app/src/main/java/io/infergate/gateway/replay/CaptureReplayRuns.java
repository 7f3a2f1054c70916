package io.infergate.gateway.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.env.Environment;

import io.infergate.admin.autoconfigure.DashboardProperties;
import io.infergate.admin.replay.ReplayRuns;
import io.infergate.bench.quality.replay.Replay;
import io.infergate.bench.quality.replay.RunResult;
import io.infergate.bench.quality.trace.Trace;
import io.infergate.bench.quality.trace.TraceException;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.routing.scheduling.config.SchedulingProfiles;

/**
 * The dashboard's replays of the traffic capture, with the bench's virtual-time replay: a run copies the window's
 * captured lines ({@link WindowSnapshot}), reads them as a trace of at most {@code max-requests} routed requests,
 * and replays it once per choice, in turn, on the bench's default cluster (8 simulated vLLM pods of Llama 3.1 8B on
 * H100s) with the gateway's own flow-control defaults, each replay's engine built from the running gateway's
 * scheduling configuration ({@link EngineProperties}) and hosted so that it reads nothing else of the gateway's.
 * <p>
 * Runs go one at a time on one daemon thread of the lowest priority, in a thread group of its own; the threads of
 * that group (the run's, and the bench's request builder it starts) use at most {@code cpu-share} of one core
 * ({@link DutyCycle}), pacing the copy and every replay; reading the copy and starting each replay's engine are not
 * paced, but what they use counts against the next slice. The latest {@value #KEPT} runs are kept. The thread's INFO lines are kept out of the gateway's log
 * ({@link ReplayThreadLogs}).
 */
final class CaptureReplayRuns implements ReplayRuns, DisposableBean {

	static final int KEPT = 10;

	private static final Log logger = LogFactory.getLog(CaptureReplayRuns.class);

	private final CaptureIndex captures;

	private final DashboardProperties.Replay limits;

	private final SchedulingProfiles profiles;

	private final Environment environment;

	private final Clock clock;

	private final ExecutorService worker;

	/** Lets the replay thread's INFO lines into the log again. */
	private volatile Runnable unquiet = () -> {
	};

	private final Deque<Run> runs = new ArrayDeque<>();

	private long lastId;

	CaptureReplayRuns(Path directory, DashboardProperties.Replay limits, SchedulingProfiles profiles,
			Environment environment, Clock clock) {
		this.captures = new CaptureIndex(directory);
		this.limits = limits;
		this.profiles = profiles;
		this.environment = environment;
		this.clock = clock;
		// a group of its own: the threads a replay starts join it, and the duty cycle counts their CPU
		ThreadGroup group = new ThreadGroup("infergate-replay");
		this.worker = Executors.newSingleThreadExecutor((task) -> {
			Thread thread = new Thread(group, task, "infergate-replay");
			thread.setDaemon(true);
			thread.setPriority(Thread.MIN_PRIORITY);
			unquiet = ReplayThreadLogs.quiet(thread);
			return thread;
		});
	}

	@Override
	public List<CaptureFile> captures() {
		return captures.files();
	}

	@Override
	public int maxRequests() {
		return limits.maxRequests();
	}

	@Override
	public synchronized ReplayRun start(RunRequest request) {
		Run running = runs.peekFirst();
		if (running != null && running.endedAt == null) {
			throw new IllegalStateException("run #" + running.id + " is still " + running.state.name()
				.toLowerCase(Locale.ROOT) + ": wait for it to end, or stop it");
		}
		Run run = new Run(++lastId, request, clock.instant());
		runs.addFirst(run);
		while (runs.size() > KEPT) {
			runs.removeLast();
		}
		worker.execute(() -> execute(run));
		return run.view();
	}

	@Override
	public synchronized ReplayRun run(long id) {
		Run run = find(id);
		return (run != null) ? run.view() : null;
	}

	@Override
	public synchronized List<ReplayRun> runs() {
		return runs.stream().map(Run::view).toList();
	}

	@Override
	public synchronized ReplayRun cancel(long id) {
		Run run = find(id);
		if (run == null) {
			throw new NoSuchElementException("no run #" + id + " is kept");
		}
		run.cancelled = true;
		return run.view();
	}

	private Run find(long id) {
		return runs.stream().filter((run) -> run.id == id).findFirst().orElse(null);
	}

	@Override
	public void destroy() {
		worker.shutdownNow();
		unquiet.run();
	}

	private void execute(Run run) {
		DutyCycle dutyCycle = new DutyCycle(limits.cpuShare(), () -> run.cancelled, run.requestsDone::incrementAndGet);
		try {
			Workload workload = read(run, dutyCycle).workload(Trace.DEFAULT_CLUSTER, 0, null);
			run.requestsTotal = (long) workload.totalRequests() * run.request.choices().size();
			run.state = State.REPLAYING;
			for (Choice choice : run.request.choices()) {
				RunResult result = new Replay(workload, choice.profile(), Double.NaN, dutyCycle)
					.hosted(EngineProperties.of(environment, profiles, choice))
					.run();
				// the bench's figures, named as the dashboard's
				var figures = io.infergate.bench.quality.report.Figures.of(result);
				run.figures.add(new Figures(figures.ttftP50Ms(), figures.ttftP90Ms(), figures.ttftP99Ms(),
						figures.requestsPerSec(), figures.outputTokensPerSec(), figures.prefixHitRate(),
						figures.failed(), figures.rejected()));
			}
			run.end(State.DONE, null, clock);
		}
		catch (CancellationException ex) {
			run.end(State.CANCELLED, null, clock);
		}
		catch (TraceException ex) {
			run.end(State.FAILED, ex.getMessage(), clock);
		}
		catch (IOException | RuntimeException ex) {
			String problem = problem(ex);
			logger.warn("Dashboard replay #" + run.id + " failed: " + problem);
			run.end(State.FAILED, problem, clock);
		}
		catch (Error ex) {
			// out of memory, say: the run ends as failed, and the error goes on
			run.end(State.FAILED, ex.toString(), clock);
			throw ex;
		}
	}

	/** The window's trace, read from a copy of its lines that is gone once read. */
	private Trace read(Run run, DutyCycle dutyCycle) throws IOException {
		long fromMs = (run.request.fromMs() != null) ? run.request.fromMs() : Long.MIN_VALUE;
		long toMs = (run.request.toMs() != null) ? run.request.toMs() : Long.MAX_VALUE;
		List<Path> files = new ArrayList<>();
		for (CaptureFile file : captures.files()) {
			if (file.routedRecords() > 0 && file.firstArrivalMs() < toMs && file.lastArrivalMs() >= fromMs) {
				files.add(captures.directory().resolve(file.name()));
			}
		}
		if (files.isEmpty()) {
			throw new TraceException("no capture file holds a routed request in the window");
		}
		Path directory = Files.createTempDirectory("infergate-replay-");
		Path copy = directory.resolve("replay-" + run.id + ".jsonl.gz");
		try {
			WindowSnapshot.write(files, fromMs, toMs, copy, dutyCycle::pace);
			Trace trace;
			try {
				trace = Trace.read(copy, 1.0, fromMs, toMs, limits.maxRequests());
			}
			catch (TraceException ex) {
				throw new TraceException(ex.getMessage().contains("routed requests in the window")
						? "the window holds more than " + limits.maxRequests() + " routed requests (infergate.management."
								+ "dashboard.replay.max-requests): narrow it"
						: ex.getMessage().replace(copy.toString(), "the window's copy"));
			}
			run.trace = String.format(Locale.ROOT, "%,d routed requests from %d capture file%s, arriving over %.1f s",
					trace.size(), files.size(), (files.size() == 1) ? "" : "s", trace.spanMicros() / 1e6);
			return trace;
		}
		finally {
			Files.deleteIfExists(copy);
			Files.deleteIfExists(directory);
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

	/** One run's progress, written by the worker and read by the dashboard. */
	private static final class Run {

		final long id;

		final RunRequest request;

		final Instant startedAt;

		final AtomicLong requestsDone = new AtomicLong();

		final List<Figures> figures = new CopyOnWriteArrayList<>();

		volatile State state = State.READING;

		volatile Instant endedAt;

		volatile String trace;

		volatile long requestsTotal;

		volatile String error;

		volatile boolean cancelled;

		Run(long id, RunRequest request, Instant startedAt) {
			this.id = id;
			this.request = request;
			this.startedAt = startedAt;
		}

		void end(State end, String problem, Clock clock) {
			error = problem;
			state = end;
			endedAt = clock.instant();
		}

		ReplayRun view() {
			return new ReplayRun(id, request, state, startedAt, endedAt, trace, requestsDone.get(), requestsTotal,
					figures, error);
		}
	}
}
