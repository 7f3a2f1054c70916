package io.infergate.gateway.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.env.Environment;

import io.infergate.admin.autoconfigure.DashboardProperties;
import io.infergate.admin.replay.ReplayRuns;
import io.infergate.routing.scheduling.config.SchedulingProfiles;

/**
 * The dashboard's replays of the traffic capture, with the bench's virtual-time replay, each run in a process of
 * its own ({@link ReplayProcess}, {@link ReplayWorkerCommand}): the run copies the window's captured lines, reads
 * them as a trace of at most {@code max-requests} routed requests, and replays it once per choice, in turn, on the
 * bench's default cluster (8 simulated vLLM pods of Llama 3.1 8B on H100s) with the gateway's own flow-control
 * defaults, each replay's engine built from the running gateway's scheduling configuration
 * ({@link EngineProperties}). The process keeps to {@code cpu-share} of one core, runs at the lowest scheduling
 * priority and has a heap of at most {@code max-heap}, so the request path keeps the gateway's cores and memory.
 * <p>
 * Runs go one at a time; one daemon thread starts each and reads its progress. Stopping a run ends its process.
 * The latest {@value #KEPT} runs are kept.
 */
final class CaptureReplayRuns implements ReplayRuns, DisposableBean {

	static final int KEPT = 10;

	private static final Log logger = LogFactory.getLog(CaptureReplayRuns.class);

	private final CaptureIndex captures;

	private final DashboardProperties.Replay limits;

	private final SchedulingProfiles profiles;

	private final Environment environment;

	private final Clock clock;

	private final ReplayProcess processes;

	private final ExecutorService worker;

	private final Deque<Run> runs = new ArrayDeque<>();

	private long lastId;

	CaptureReplayRuns(Path directory, DashboardProperties.Replay limits, SchedulingProfiles profiles,
			Environment environment, Clock clock) {
		this.captures = new CaptureIndex(directory);
		this.limits = limits;
		this.profiles = profiles;
		this.environment = environment;
		this.clock = clock;
		this.processes = new ReplayProcess(limits.maxHeap());
		this.worker = Executors.newSingleThreadExecutor((task) -> {
			Thread thread = new Thread(task, "infergate-replay");
			thread.setDaemon(true);
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
		run.cancel();
		return run.view();
	}

	private Run find(long id) {
		return runs.stream().filter((run) -> run.id == id).findFirst().orElse(null);
	}

	@Override
	public void destroy() {
		synchronized (this) {
			runs.forEach(Run::cancel);
		}
		worker.shutdownNow();
	}

	private void execute(Run run) {
		Path job = null;
		Path errors = null;
		try {
			job = Files.createTempFile("infergate-replay-", ".properties");
			errors = Files.createTempFile("infergate-replay-", ".err");
			job(run).write(job);
			Process process = processes.start(job, errors);
			if (!run.attach(process)) {
				process.destroyForcibly();
			}
			String failed = follow(run, process);
			int exit = process.waitFor();
			if (run.cancelled) {
				run.end(State.CANCELLED, null, clock);
			}
			else if (failed != null) {
				run.end(State.FAILED, failed, clock);
			}
			else if (exit != 0) {
				String problem = "the replay process exited with " + exit + lastLine(errors);
				logger.warn("Dashboard replay #" + run.id + " failed: " + problem);
				run.end(State.FAILED, problem, clock);
			}
			else {
				run.end(State.DONE, null, clock);
			}
		}
		catch (NoSuchElementException ex) {
			run.end(State.FAILED, ex.getMessage(), clock);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			run.cancel();
			run.end(State.CANCELLED, null, clock);
		}
		catch (IOException | RuntimeException ex) {
			String problem = "cannot run the replay: " + ex.getMessage();
			logger.warn("Dashboard replay #" + run.id + " failed: " + problem);
			run.end(State.FAILED, problem, clock);
		}
		finally {
			deleteQuietly(job);
			deleteQuietly(errors);
		}
	}

	/** The job of a run: the capture files that hold its window, and each choice's engine. */
	private ReplayJob job(Run run) {
		long fromMs = (run.request.fromMs() != null) ? run.request.fromMs() : Long.MIN_VALUE;
		long toMs = (run.request.toMs() != null) ? run.request.toMs() : Long.MAX_VALUE;
		List<Path> files = new ArrayList<>();
		for (CaptureFile file : captures.files()) {
			if (file.routedRecords() > 0 && file.firstArrivalMs() < toMs && file.lastArrivalMs() >= fromMs) {
				files.add(captures.directory().resolve(file.name()));
			}
		}
		if (files.isEmpty()) {
			throw new NoSuchElementException("no capture file holds a routed request in the window");
		}
		List<ReplayJob.Choice> choices = run.request.choices()
			.stream()
			.map((choice) -> new ReplayJob.Choice(choice.profile(), EngineProperties.of(environment, profiles, choice)))
			.toList();
		return new ReplayJob(files, fromMs, toMs, limits.maxRequests(), limits.cpuShare(), limits.yieldAbove(),
				choices);
	}

	/** Reads the process's lines into the run until it ends; returns why it failed, if it said. */
	private static String follow(Run run, Process process) throws IOException {
		String failed = null;
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = lines.readLine()) != null) {
				int space = line.indexOf(' ');
				String fact = (space < 0) ? line : line.substring(0, space);
				String value = (space < 0) ? "" : line.substring(space + 1);
				switch (fact) {
					case "trace" -> run.trace = value;
					case "total" -> {
						run.requestsTotal = Long.parseLong(value);
						run.state = State.REPLAYING;
					}
					case "done" -> run.requestsDone = Long.parseLong(value);
					case "figures" -> run.figures.add(figures(value));
					case "failed" -> failed = value;
					default -> logger.debug("Dashboard replay #" + run.id + " said: " + line);
				}
			}
		}
		return failed;
	}

	private static Figures figures(String value) {
		String[] parts = value.split(" ");
		return new Figures(Double.parseDouble(parts[0]), Double.parseDouble(parts[1]), Double.parseDouble(parts[2]),
				Double.parseDouble(parts[3]), Double.parseDouble(parts[4]), Double.parseDouble(parts[5]),
				Long.parseLong(parts[6]), Long.parseLong(parts[7]));
	}

	/** ": " and the last line the process wrote on standard error (WARN and above only, so a short file), or nothing. */
	private static String lastLine(Path errors) {
		try {
			List<String> lines = Files.readAllLines(errors, StandardCharsets.UTF_8);
			for (int i = lines.size() - 1; i >= 0; i--) {
				if (!lines.get(i).isBlank()) {
					return ": " + lines.get(i).strip();
				}
			}
		}
		catch (IOException ex) {
			// no reason, then
		}
		return "";
	}

	private static void deleteQuietly(Path file) {
		if (file != null) {
			try {
				Files.deleteIfExists(file);
			}
			catch (IOException ex) {
				// a temporary file; the system's cleaning takes it
			}
		}
	}

	/** One run's progress, written by the worker and read by the dashboard. */
	private static final class Run {

		final long id;

		final RunRequest request;

		final Instant startedAt;

		volatile long requestsDone;

		final List<Figures> figures = new CopyOnWriteArrayList<>();

		volatile State state = State.READING;

		volatile Instant endedAt;

		volatile String trace;

		volatile long requestsTotal;

		volatile String error;

		volatile boolean cancelled;

		private Process process;

		Run(long id, RunRequest request, Instant startedAt) {
			this.id = id;
			this.request = request;
			this.startedAt = startedAt;
		}

		/** Gives the run its process; false when the run was stopped before, and the process must end. */
		synchronized boolean attach(Process started) {
			process = started;
			return !cancelled;
		}

		synchronized void cancel() {
			cancelled = true;
			if (process != null) {
				process.destroy();
			}
		}

		void end(State end, String problem, Clock clock) {
			error = problem;
			state = end;
			endedAt = clock.instant();
		}

		ReplayRun view() {
			return new ReplayRun(id, request, state, startedAt, endedAt, trace, requestsDone, requestsTotal,
					figures, error);
		}
	}
}
