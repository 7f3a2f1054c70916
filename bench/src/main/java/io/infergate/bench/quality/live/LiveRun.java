package io.infergate.bench.quality.live;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import io.infergate.bench.quality.replay.Policy;
import io.infergate.bench.quality.replay.Replay;
import io.infergate.bench.quality.replay.RequestRecord;
import io.infergate.bench.quality.replay.RunResult;
import io.infergate.bench.quality.report.Figures;
import io.infergate.bench.quality.report.ReportWriter;
import io.infergate.bench.quality.report.ResultsJson;
import io.infergate.bench.quality.report.ResultsJson.RateResults;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadRequests;

/**
 * The bench's {@code --live} mode: for each policy, starts a {@link LocalCluster} (simulator jars at a time scale,
 * gateway jars, Redis when the policy shares dispatches), replays the workload through it in wall-clock time
 * ({@link LiveReplay}), stops it, and replays the same workload in virtual time; then writes both side by side.
 * <p>
 * Writes {@code results.json} (the live figures, in model time), {@code prediction.json} (the virtual-time figures),
 * {@code report.md} (the two side by side, with their ratio), each request's times live and predicted
 * ({@code requests-POLICY-live.csv}, {@code requests-POLICY-predicted.csv}) and each process's log under
 * {@code logs/POLICY/}. With a capture directory, each gateway also writes its traffic capture
 * ({@code infergate.capture.*}) to {@code CAPTURES/POLICY/gateway-G}, and the report says where.
 */
public final class LiveRun {

	/** A live/predicted ratio further from 1 than this is marked in the report. */
	static final double MARKED_DIFFERENCE = 0.10;

	private final Workload workload;

	private final List<String> policies;

	private final double timeScale;

	private final long sharingDelayMicros;

	private final Path simJar;

	private final Path gatewayJar;

	/** Where the gateways write their traffic captures, one directory per policy; null for none. */
	private final Path captures;

	private final PrintStream progress;

	public LiveRun(Workload workload, List<String> policies, double timeScale, long sharingDelayMicros, Path simJar,
			Path gatewayJar, Path captures, PrintStream progress) {
		this.workload = workload;
		this.policies = policies;
		this.timeScale = timeScale;
		this.sharingDelayMicros = sharingDelayMicros;
		this.simJar = simJar;
		this.gatewayJar = gatewayJar;
		this.captures = captures;
		this.progress = progress;
	}

	/** Why the workload cannot run live, or {@code null}. */
	public static String unsupported(Workload workload) {
		if (workload.arrival().type() == Workload.Arrival.Type.CLOSED_LOOP) {
			return "--live replays Poisson arrivals; closed-loop arrival is not supported";
		}
		if (workload.arrival().type() == Workload.Arrival.Type.TRACE) {
			return workload.tenants().isEmpty() ? null
					: "--live sends every request without an API key; a capture of several tenants is not supported";
		}
		if (workload.arrival().rates().size() != 1) {
			return "--live replays one rate at a time; give the workload one rate (or --rate R)";
		}
		if (!workload.tenants().isEmpty()) {
			return "--live sends every request without an API key; a workload with tenants is not supported";
		}
		return null;
	}

	/** Runs every policy live and predicted; returns the report's side-by-side table. */
	public String run(Path out, String command) throws IOException, InterruptedException {
		double rate = workload.arrival().rates().get(0);
		Map<String, Figures> live = new LinkedHashMap<>();
		Map<String, Figures> predicted = new LinkedHashMap<>();
		Map<String, LiveReplay.Result> liveResults = new LinkedHashMap<>();
		Map<String, double[]> meanTtfts = new LinkedHashMap<>();
		Map<String, double[]> sessionTurnsKept = new LinkedHashMap<>();
		List<String> timings = new java.util.ArrayList<>();
		for (String name : policies) {
			Policy policy = Policy.parse(name);
			progress.printf(Locale.ROOT, "%s: starting %d pods and %d gateways (time scale %s)%n", name,
					workload.cluster().pods(), workload.gateways(), timeScale);
			long startNanos = System.nanoTime();
			LiveReplay.Result liveResult;
			Path policyCaptures = (captures != null) ? captures.resolve(name) : null;
			try (LocalCluster cluster = LocalCluster.start(workload, policy, workload.gateways(), timeScale, simJar,
					gatewayJar, out.resolve("logs").resolve(name), policyCaptures)) {
				long replayNanos = System.nanoTime();
				progress.printf(Locale.ROOT, "%s: cluster up in %.1f s; replaying %d requests%n", name,
						(replayNanos - startNanos) / 1e9, workload.totalRequests());
				liveResult = new LiveReplay(workload, name, rate, timeScale, cluster.gateways(), cluster.pods()).run();
				timings.add(String.format(Locale.ROOT, "%s: replay %.1f s wall, %.1f s of model time, %d failed",
						name, (System.nanoTime() - replayNanos) / 1e9, liveResult.run().endMicros() / 1e6,
						liveResult.run().failed()));
			}
			RunResult liveRun = liveResult.run();
			liveResults.put(name, liveResult);
			RunResult predictedRun = new Replay(workload, name, rate, sharingDelayMicros, Replay.Progress.NONE).run();
			live.put(name, Figures.of(liveRun));
			predicted.put(name, Figures.of(predictedRun));
			meanTtfts.put(name, new double[] { meanTtftMillis(liveRun), meanTtftMillis(predictedRun) });
			sessionTurnsKept.put(name,
					new double[] { liveResult.sessionTurnsKept(), predicted.get(name).sessionTurnsKept() });
			writeRequests(out.resolve("requests-" + name + "-live.csv"), liveRun);
			writeRequests(out.resolve("requests-" + name + "-predicted.csv"), predictedRun);
		}
		boolean flowControl = ResultsJson.showsFlowControl(List.of(live, predicted));
		Files.writeString(out.resolve("results.json"),
				ResultsJson.write(workload.name(), List.of(new RateResults(rate, live)), false, flowControl),
				StandardCharsets.UTF_8);
		Files.writeString(out.resolve("prediction.json"),
				ResultsJson.write(workload.name(), List.of(new RateResults(rate, predicted)), false, flowControl),
				StandardCharsets.UTF_8);
		String table = comparison(live, predicted, meanTtfts, sessionTurnsKept) + "\n" + ttftMeans(liveResults);
		String written = (captures == null) ? "" : capturesWritten(captures);
		StringBuilder md = new StringBuilder();
		md.append("# Live replay: ").append(workload.name()).append(" through ").append(workload.gateways())
			.append(workload.gateways() == 1 ? " gateway" : " gateways").append("\n\n");
		md.append(String.format(Locale.ROOT, "%d simulator jars at time scale %s (the engines run %s times as fast "
				+ "as the modelled GPU) behind %d gateway jars on loopback; %s, round-robin over the gateways in "
				+ "issue order. Times below are model time (wall × time scale). The prediction is the virtual-time "
				+ "replay of the same workload, policy and number of gateways. Engine scheduling %s%s.%n%n",
				workload.cluster().pods(), timeScale, timeScale, workload.gateways(),
				(workload.shape() instanceof Workload.Captured captured)
						? "captured requests sent at their arrival times, and each conversation's next turn its "
								+ "captured think time after the previous reply ended, all ÷ the time scale ("
								+ captured.trace() + ")"
						: new WorkloadRequests(workload).conversational()
						? "conversations start at the workload's Poisson times at rate / turns, and each next turn "
								+ "(with its conversation's x-session-id) goes out its think time after the previous "
								+ "reply ended, all ÷ the time scale"
						: "requests sent at the workload's Poisson arrival times ÷ the time scale",
				workload.cluster().schedulingPolicy().cliName(),
				workload.cluster().priorityScheduling() ? " (the gateways forward each request's priority)" : ""));
		md.append("Reproduce:\n\n    ").append(command).append("\n\n");
		md.append(table).append('\n');
		md.append("Runs: ").append(String.join("; ", timings)).append("\n\n").append(written)
			.append(written.isEmpty() ? "" : "\n");
		md.append("## Live figures\n\n");
		ReportWriter.table(md, live);
		md.append("\n## Virtual-time prediction\n\n");
		ReportWriter.table(md, predicted);
		Files.writeString(out.resolve("report.md"), md.toString(), StandardCharsets.UTF_8);
		return table + "Runs: " + String.join("; ", timings) + "\n" + written;
	}

	/** Where the gateways wrote their captures: every file under {@code captures}, closed when the gateways stopped. */
	private static String capturesWritten(Path captures) throws IOException {
		List<String> files = List.of();
		if (Files.isDirectory(captures)) {
			try (Stream<Path> walk = Files.walk(captures)) {
				files = walk.filter((file) -> file.getFileName().toString().endsWith(".jsonl.gz"))
					.map((file) -> captures.relativize(file).toString())
					.sorted()
					.toList();
			}
		}
		return "Traffic captures (docs/capture.md) in " + captures.toAbsolutePath() + ", per policy and gateway: "
				+ (files.isEmpty() ? "none written" : String.join(", ", files)) + "\n";
	}

	/**
	 * Over every request of each live run, warm-up included: the mean TTFT the client saw and the mean the engines
	 * measured themselves (from receiving the request to its first token), and their difference, which is what the
	 * gateway, HTTP and the client add in front of the engines.
	 */
	static String ttftMeans(Map<String, LiveReplay.Result> results) {
		StringBuilder md = new StringBuilder();
		md.append("| policy | TTFT mean ms at the client, every request | at the engines (their own histograms) "
				+ "| added in front of the engines |\n");
		md.append("|---|---:|---:|---:|\n");
		results.forEach((policy, result) -> md.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f |%n",
				policy, result.clientTtftMeanMs(), result.engineTtftMeanMs(),
				result.clientTtftMeanMs() - result.engineTtftMeanMs())));
		return md.toString();
	}

	/** One line per measured request: index, pod, arrival, TTFT and E2E in model µs (-1: failed). */
	private static void writeRequests(Path file, RunResult run) throws IOException {
		StringBuilder csv = new StringBuilder("index,pod,arrivalMicros,ttftMicros,e2eMicros\n");
		for (RequestRecord record : run.measured()) {
			boolean done = record.completed();
			csv.append(record.index()).append(',').append(record.pod()).append(',').append(record.arrivalMicros())
				.append(',').append(done ? record.firstTokenMicros() - record.arrivalMicros() : -1).append(',')
				.append(done ? record.finishMicros() - record.arrivalMicros() : -1).append('\n');
		}
		Files.writeString(file, csv, StandardCharsets.UTF_8);
	}

	private static double meanTtftMillis(RunResult run) {
		return run.measured()
			.stream()
			.filter(RequestRecord::completed)
			.mapToDouble((record) -> (record.firstTokenMicros() - record.arrivalMicros()) / 1000.0)
			.average()
			.orElse(Double.NaN);
	}

	/**
	 * Prefix hit rate and TTFT percentiles, live against predicted, one row per policy and figure.
	 * @param meanTtfts per policy, the measured requests' mean TTFT live and predicted
	 * @param sessionTurnsKept per policy, the share of measured later turns of a conversation kept on the pod of its
	 * previous turn, live and predicted; NaN without conversations, and then no row
	 */
	static String comparison(Map<String, Figures> live, Map<String, Figures> predicted,
			Map<String, double[]> meanTtfts, Map<String, double[]> sessionTurnsKept) {
		StringBuilder md = new StringBuilder();
		md.append("| policy | figure | live | virtual-time prediction | live ÷ prediction |\n");
		md.append("|---|---|---:|---:|---:|\n");
		for (String policy : live.keySet()) {
			Figures l = live.get(policy);
			Figures p = predicted.get(policy);
			row(md, policy, "prefix hit rate", l, p, Figures::prefixHitRate, 3);
			row(md, policy, "TTFT p50 ms", l, p, Figures::ttftP50Ms, 1);
			row(md, policy, "TTFT p90 ms", l, p, Figures::ttftP90Ms, 1);
			row(md, policy, "TTFT p99 ms", l, p, Figures::ttftP99Ms, 1);
			double[] means = meanTtfts.get(policy);
			row(md, policy, "TTFT mean ms", means[0], means[1], 2);
			row(md, policy, "E2E p50 ms", l, p, Figures::e2eP50Ms, 0);
			row(md, policy, "load CV", l, p, Figures::loadSkewCv, 3);
			double[] kept = sessionTurnsKept.get(policy);
			if (!Double.isNaN(kept[0]) || !Double.isNaN(kept[1])) {
				row(md, policy, "session turns kept", kept[0], kept[1], 3);
			}
			md.append("| ").append(policy).append(" | failed | ").append(l.failed()).append(" | ").append(p.failed())
				.append(" | |\n");
		}
		return md.toString();
	}

	private static void row(StringBuilder md, String policy, String figure, Figures live, Figures predicted,
			ToDoubleFunction<Figures> value, int decimals) {
		row(md, policy, figure, value.applyAsDouble(live), value.applyAsDouble(predicted), decimals);
	}

	private static void row(StringBuilder md, String policy, String figure, double l, double p, int decimals) {
		double ratio = l / p;
		String format = "%,." + decimals + "f";
		String marked = (Math.abs(ratio - 1) > MARKED_DIFFERENCE) ? "**" : "";
		md.append("| ").append(policy).append(" | ").append(figure).append(" | ")
			.append(String.format(Locale.ROOT, format, l)).append(" | ").append(String.format(Locale.ROOT, format, p))
			.append(" | ").append(marked)
			.append(Double.isFinite(ratio) ? String.format(Locale.ROOT, "%.2f", ratio) : "–").append(marked)
			.append(" |\n");
	}
}
