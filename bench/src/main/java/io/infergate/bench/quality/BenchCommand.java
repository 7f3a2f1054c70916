package io.infergate.bench.quality;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.infergate.bench.quality.live.LiveRun;
import io.infergate.bench.quality.replay.Policy;
import io.infergate.bench.quality.replay.Replay;
import io.infergate.bench.quality.replay.RunResult;
import io.infergate.bench.quality.report.Figures;
import io.infergate.bench.quality.report.ProgressBar;
import io.infergate.bench.quality.report.ReportWriter;
import io.infergate.bench.quality.report.ResultsJson;
import io.infergate.bench.quality.report.ResultsJson.RateResults;
import io.infergate.bench.quality.trace.Trace;
import io.infergate.bench.quality.trace.TraceException;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadException;
import io.infergate.bench.quality.workload.WorkloadParser;
import io.infergate.sim.engine.SchedulingPolicy;

/**
 * The routing-quality harness's command line: replays a workload file under each policy (scheduling profile) and
 * writes {@code results.json}, {@code report.md} and PNG charts.
 * <p>
 * Exit status 0 on success, 2 for a bad command line or workload file (one line on stderr naming the problem).
 */
public final class BenchCommand {

	public static final int EXIT_USAGE = 2;

	static final String USAGE = """
			Usage: java -jar routing-bench.jar --workload FILE.yaml --policies a,b,c --out DIR [options]

			Replays the workload in virtual time through the real scheduler against simulated model servers, once per
			policy (a scheduling profile name; 'oracle' routes on the engines' true prefix-cache state; a name ending
			in +dispatch-sharing has the gateway replicas share their dispatches), and writes DIR/results.json,
			DIR/report.md and PNG charts.

			Options:
			  --workload FILE   workload YAML (DESIGN.md, "Bench workload and results format")
			  --trace CAPTURE   replay a traffic capture instead of a workload: a capture-*.jsonl.gz file, or a
			                    directory of them (docs/capture.md); its requests arrive as recorded
			  --speed X         --trace: arrivals come X times as fast as recorded (default 1)
			  --open-loop       --trace: every request at its captured time; without it a conversation's next
			                    turn is sent its captured think time after the previous turn ends in the replay
			  --cluster FILE    --trace: the pods, from a workload file's cluster: section (default: 8 pods of
			                    llama-3.1-8b-h100, as bench/workloads/multi-turn-chat.yaml)
			  --policies LIST   comma-separated profile names, e.g. round-robin,least-request,default
			  --out DIR         output directory, created if missing
			  --rate R          Poisson rate in requests/s, replacing the file's rate and ladder
			  --ladder R1,R2    Poisson rates run in turn, replacing the file's rate and ladder
			  --seed N          replaces the file's seed
			  --warmup N        requests sent before measuring, replacing the file's 'warmup' (a trace: 0)
			  --gateways N1,N2  gateway replicas, replacing the file's 'gateways'; several numbers run in turn
			  --flow-control true|false
			                    the gateways' flow control on or off, replacing the file's 'flow-control'
			  --engine-scheduling fcfs|priority
			                    every pod's engine scheduling, replacing the file's 'cluster.scheduling-policy';
			                    with priority the gateways forward each request's priority (vLLM's convention)
			  --sharing-delay-ms D
			                    how long a shared dispatch takes to reach the other replicas under a
			                    PROFILE+dispatch-sharing policy, virtual ms (default 1)
			  --live            replay in wall-clock time through gateway jars in front of simulator jars that
			                    this command starts on loopback (and a redis-server for +dispatch-sharing),
			                    and report the live figures beside the virtual-time prediction; Poisson
			                    arrivals at one rate (independent requests, or conversations starting at
			                    rate / turns), no tenants, one --gateways count
			  --time-scale X    --live: the simulators run X times as fast as the modelled GPU (default 0.1)
			  --gateway-jar F   --live: default gateway-app/target/gateway-app.jar
			  --sim-jar F       --live: default model-server-sim/target/model-server-sim.jar
			  --capture DIR     --live: each gateway writes its traffic capture (docs/capture.md) to
			                    DIR/POLICY/gateway-G
			  --help            this text

			java -jar routing-bench.jar compare-defaults --out DIR compares the shipped profiles (--help there).
			Any other command line runs JMH, e.g. java -jar routing-bench.jar SchedulingBenchmark -f 1 (-h for its help).
			""";

	private final PrintStream out;

	private final PrintStream err;

	private final boolean terminal;

	public BenchCommand(PrintStream out, PrintStream err, boolean terminal) {
		this.out = out;
		this.err = err;
		this.terminal = terminal;
	}

	/** Whether a command line is meant for the harness rather than JMH. */
	public static boolean isHarnessCommand(String[] args) {
		for (String arg : args) {
			if (arg.equals("--help") || arg.equals("--live") || arg.startsWith("--workload") || arg.startsWith("--trace")
					|| arg.startsWith("--policies") || arg.startsWith("--out")) {
				return true;
			}
		}
		return false;
	}

	public int run(String[] args) {
		Options options;
		try {
			options = Options.parse(args);
		}
		catch (IllegalArgumentException ex) {
			return usageError(ex.getMessage());
		}
		if (options.help) {
			out.print(USAGE);
			return 0;
		}
		if (options.live) {
			return live(options, args);
		}
		if (options.capture != null) {
			return usageError("--capture needs --live");
		}
		Workload workload;
		long readNanos = System.nanoTime();
		try {
			workload = (options.trace != null) ? options.traceWorkload()
					: options.apply(WorkloadParser.parse(options.workload));
		}
		catch (WorkloadException ex) {
			return usageError(((options.trace != null) ? "cluster " + options.cluster
					: "workload " + options.workload) + ": " + ex.getMessage());
		}
		catch (TraceException ex) {
			return usageError("trace " + ex.getMessage());
		}
		Set<String> known = Replay.policies();
		for (String policy : options.policies) {
			if (!Policy.parse(policy).isKnown(known)) {
				return usageError("unknown policy '" + policy + "'; defined policies: "
						+ String.join(", ", new TreeSet<>(known)) + " (each also as NAME" + Policy.DISPATCH_SHARING
						+ ")");
			}
		}
		List<Integer> gatewayCounts = (options.gateways != null) ? options.gateways : List.of(workload.gateways());
		if (gatewayCounts.size() > 1 && workload.arrival().rates().size() > 1) {
			return usageError("a ladder of rates and several --gateways cannot be combined; give one of them");
		}
		try {
			Files.createDirectories(options.out);
		}
		catch (IOException | RuntimeException ex) {
			return usageError("cannot create output directory " + options.out + ": " + ex.getMessage());
		}
		List<Double> rates = workload.arrival().rates();
		ProgressBar progress = new ProgressBar(err, terminal, (long) gatewayCounts.size() * rates.size()
				* options.policies.size() * workload.totalRequests());
		Map<Integer, Map<String, Figures>> byGateways = new LinkedHashMap<>();
		Map<Integer, Map<String, double[]>> ttftByGateways = new LinkedHashMap<>();
		List<RateResults> results = new ArrayList<>();
		List<Map<String, double[]>> ttfts = new ArrayList<>();
		List<String> timings = new ArrayList<>();
		if (options.trace != null) {
			timings.add(String.format(Locale.ROOT, "trace read in %.1f s", (System.nanoTime() - readNanos) / 1e9));
		}
		for (int gateways : gatewayCounts) {
			Workload replicated = workload.withGateways(gateways);
			String behind = (gatewayCounts.size() > 1) ? ", " + gateways + " gateways" : "";
			for (double rate : rates) {
				Map<String, Figures> byPolicy = new LinkedHashMap<>();
				Map<String, double[]> ttftByPolicy = new LinkedHashMap<>();
				for (String policy : options.policies) {
					progress.startRun(policy + behind
							+ (Double.isNaN(rate) ? "" : " @ " + ResultsJson.rateKey(rate) + " req/s"),
							replicated.totalRequests());
					long startNanos = System.nanoTime();
					RunResult run = new Replay(replicated, policy, rate, options.sharingDelayMicros(), progress).run();
					timings.add(String.format(Locale.ROOT,
							"%s%s: %d requests, %.1f s simulated, %.1f s wall, prefix index %.1f MB per gateway",
							policy, behind, run.issued(), run.endMicros() / 1e6, (System.nanoTime() - startNanos) / 1e9,
							Arrays.stream(run.prefixIndexBytes()).average().orElse(0) / 1e6));
					byPolicy.put(policy,
							Figures.of(run, replicated.tenants().stream().map(Workload.Tenant::name).toList()));
					ttftByPolicy.put(policy, Figures.sortedTtftMillis(run));
				}
				results.add(new RateResults(rate, byPolicy));
				ttfts.add(ttftByPolicy);
				byGateways.put(gateways, byPolicy);
				ttftByGateways.put(gateways, ttftByPolicy);
			}
		}
		progress.finish();
		try {
			if (gatewayCounts.size() > 1) {
				ReportWriter.writeByGateways(options.out, workload, commandLine(args), byGateways, ttftByGateways);
			}
			else {
				ReportWriter.write(options.out, workload.withGateways(gatewayCounts.get(0)), commandLine(args),
						results, ttfts);
			}
		}
		catch (IOException ex) {
			err.println("routing-bench: cannot write the report to " + options.out + ": " + ex.getMessage());
			return 1;
		}
		if (gatewayCounts.size() > 1) {
			StringBuilder table = new StringBuilder();
			table.append(String.format(Locale.ROOT, "%n%s behind %s gateway replicas%n", workload.name(),
					gatewayCounts));
			ReportWriter.gatewaysTable(table, byGateways);
			out.print(table);
		}
		else {
			for (RateResults rate : results) {
				StringBuilder table = new StringBuilder();
				if (!Double.isNaN(rate.ratePerSecond())) {
					table.append(String.format(Locale.ROOT, "%n%s at %s requests/s%n", workload.name(),
							ResultsJson.rateKey(rate.ratePerSecond())));
				}
				ReportWriter.table(table, rate.policies());
				out.print(table);
			}
		}
		out.println("Replays (wall time includes each run's Spring contexts): " + String.join("; ", timings));
		out.println("Wrote " + options.out.resolve("results.json") + " and " + options.out.resolve("report.md"));
		return 0;
	}

	private int live(Options options, String[] args) {
		Workload workload;
		try {
			workload = (options.trace != null) ? options.traceWorkload()
					: options.apply(WorkloadParser.parse(options.workload));
		}
		catch (WorkloadException ex) {
			return usageError(((options.trace != null) ? "cluster " + options.cluster
					: "workload " + options.workload) + ": " + ex.getMessage());
		}
		catch (TraceException ex) {
			return usageError("trace " + ex.getMessage());
		}
		if (options.gateways != null && options.gateways.size() != 1) {
			return usageError("--live runs one --gateways count at a time");
		}
		if (options.gateways != null) {
			workload = workload.withGateways(options.gateways.get(0));
		}
		String unsupported = LiveRun.unsupported(workload);
		if (unsupported != null) {
			return usageError(unsupported);
		}
		Set<String> known = Replay.policies();
		for (String policy : options.policies) {
			if (!Policy.parse(policy).isKnown(known)) {
				return usageError("unknown policy '" + policy + "'; defined policies: "
						+ String.join(", ", new TreeSet<>(known)));
			}
		}
		for (Path jar : List.of(options.simJar, options.gatewayJar)) {
			if (!Files.isRegularFile(jar)) {
				return usageError("no jar at " + jar + "; build first: ./mvnw -B -q -DskipTests package");
			}
		}
		try {
			Files.createDirectories(options.out);
			out.print(new LiveRun(workload, options.policies, options.timeScale, options.sharingDelayMicros(),
					options.simJar, options.gatewayJar, options.capture, err)
				.run(options.out, commandLine(args)));
		}
		catch (IOException | RuntimeException ex) {
			err.println("routing-bench: the live run failed: " + ex.getMessage());
			return 1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return 1;
		}
		out.println("Wrote " + options.out.resolve("results.json") + ", " + options.out.resolve("prediction.json")
				+ " and " + options.out.resolve("report.md"));
		return 0;
	}

	private int usageError(String message) {
		err.println("routing-bench: " + message + " (--help for usage)");
		return EXIT_USAGE;
	}

	private static String commandLine(String[] args) {
		StringBuilder line = new StringBuilder("java -jar bench/target/routing-bench.jar");
		for (String arg : args) {
			line.append(' ').append(arg.matches("[A-Za-z0-9_./,=:@+-]+") ? arg : "'" + arg + "'");
		}
		return line.toString();
	}

	/** The parsed command line. */
	static final class Options {

		Path workload;

		List<String> policies = List.of();

		Path out;

		Double rate;

		List<Double> ladder;

		Long seed;

		Integer warmup;

		List<Integer> gateways;

		Boolean flowControl;

		SchedulingPolicy engineScheduling;

		double sharingDelayMillis = Replay.DEFAULT_SHARING_DELAY_MICROS / 1000.0;

		boolean live;

		double timeScale = 0.1;

		Path gatewayJar = Path.of("gateway-app/target/gateway-app.jar");

		Path simJar = Path.of("model-server-sim/target/model-server-sim.jar");

		/** --live: where the gateways write their traffic captures, or null for none. */
		Path capture;

		/** A capture to replay instead of a workload file, or null. */
		Path trace;

		/** --trace: how many times faster than recorded the trace's arrivals come. */
		double speed = 1;

		boolean speedGiven;

		/** --trace: every request at its captured time, conversations' next turns too. */
		boolean openLoop;

		/** --trace: the cluster's workload file (its cluster: section), or null for the default cluster. */
		Path cluster;

		/** The capture as a workload, on the --cluster file's cluster or the default one. */
		Workload traceWorkload() {
			Trace captured = Trace.read(trace, speed, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE);
			if (openLoop) {
				captured.openLoop();
			}
			Workload.Cluster pods = (cluster != null) ? WorkloadParser.parseCluster(cluster) : Trace.DEFAULT_CLUSTER;
			if (engineScheduling != null) {
				pods = pods.withSchedulingPolicy(engineScheduling);
			}
			return captured.workload(pods, (warmup != null) ? warmup : 0, flowControl);
		}

		boolean help;

		static Options parse(String[] args) {
			Options options = new Options();
			for (int i = 0; i < args.length; i++) {
				String arg = args[i];
				String value = null;
				int equals = arg.indexOf('=');
				if (arg.startsWith("--") && equals > 0) {
					value = arg.substring(equals + 1);
					arg = arg.substring(0, equals);
				}
				if (arg.equals("--help")) {
					options.help = true;
					continue;
				}
				if (arg.equals("--live")) {
					options.live = true;
					continue;
				}
				if (arg.equals("--open-loop")) {
					options.openLoop = true;
					continue;
				}
				if (!List.of("--workload", "--policies", "--out", "--rate", "--ladder", "--seed", "--warmup",
						"--gateways", "--flow-control", "--engine-scheduling", "--sharing-delay-ms", "--time-scale",
						"--gateway-jar", "--sim-jar", "--capture", "--trace", "--speed", "--cluster")
					.contains(arg)) {
					throw new IllegalArgumentException("unknown option '" + args[i] + "'");
				}
				if (value == null) {
					if (i + 1 >= args.length) {
						throw new IllegalArgumentException(arg + " needs a value");
					}
					value = args[++i];
				}
				switch (arg) {
					case "--workload" -> options.workload = Path.of(value);
					case "--out" -> options.out = Path.of(value);
					case "--policies" -> options.policies = names(value);
					case "--rate" -> options.rate = positive(arg, value);
					case "--ladder" -> {
						options.ladder = new ArrayList<>();
						for (String rate : value.split(",")) {
							options.ladder.add(positive(arg, rate.trim()));
						}
					}
					case "--gateways" -> {
						options.gateways = new ArrayList<>();
						for (String count : value.split(",")) {
							options.gateways.add(count(arg, count.trim()));
						}
						if (new LinkedHashSet<>(options.gateways).size() != options.gateways.size()) {
							throw new IllegalArgumentException("--gateways names a number twice: '" + value + "'");
						}
					}
					case "--flow-control" -> {
						if (!value.equals("true") && !value.equals("false")) {
							throw new IllegalArgumentException("--flow-control expects true or false, got '" + value
									+ "'");
						}
						options.flowControl = Boolean.valueOf(value);
					}
					case "--engine-scheduling" -> {
						try {
							options.engineScheduling = SchedulingPolicy.fromCliName(value);
						}
						catch (IllegalArgumentException ex) {
							throw new IllegalArgumentException("--engine-scheduling expects fcfs or priority, got '"
									+ value + "'");
						}
					}
					case "--sharing-delay-ms" -> options.sharingDelayMillis = nonNegative(arg, value);
					case "--time-scale" -> options.timeScale = positive(arg, value);
					case "--gateway-jar" -> options.gatewayJar = Path.of(value);
					case "--sim-jar" -> options.simJar = Path.of(value);
					case "--capture" -> options.capture = Path.of(value);
					case "--trace" -> options.trace = Path.of(value);
					case "--speed" -> {
						options.speed = positive(arg, value);
						options.speedGiven = true;
					}
					case "--cluster" -> options.cluster = Path.of(value);
					case "--warmup" -> options.warmup = nonNegativeWhole(arg, value);
					case "--seed" -> {
						try {
							options.seed = Long.parseLong(value);
						}
						catch (NumberFormatException ex) {
							throw new IllegalArgumentException("--seed expects an integer, got '" + value + "'");
						}
					}
					default -> throw new IllegalStateException(arg);
				}
			}
			if (!options.help) {
				if (options.workload == null && options.trace == null) {
					throw new IllegalArgumentException("missing --workload FILE (or --trace CAPTURE)");
				}
				if (options.workload != null && options.trace != null) {
					throw new IllegalArgumentException("give --workload or --trace, not both");
				}
				if (options.trace == null && (options.speedGiven || options.cluster != null || options.openLoop)) {
					throw new IllegalArgumentException("--speed, --cluster and --open-loop need --trace");
				}
				if (options.trace != null && (options.rate != null || options.ladder != null || options.seed != null)) {
					throw new IllegalArgumentException("--rate, --ladder and --seed do not apply to --trace: a trace "
							+ "arrives as captured (scale it with --speed)");
				}
				if (options.policies.isEmpty()) {
					throw new IllegalArgumentException("missing --policies a,b,c");
				}
				if (options.out == null) {
					throw new IllegalArgumentException("missing --out DIR");
				}
				if (options.rate != null && options.ladder != null) {
					throw new IllegalArgumentException("give --rate or --ladder, not both");
				}
			}
			return options;
		}

		private static List<String> names(String value) {
			Set<String> names = new LinkedHashSet<>();
			for (String name : value.split(",")) {
				String trimmed = name.trim();
				if (trimmed.isEmpty()) {
					throw new IllegalArgumentException("--policies has an empty name: '" + value + "'");
				}
				if (!names.add(trimmed)) {
					throw new IllegalArgumentException("--policies names '" + trimmed + "' twice");
				}
			}
			return List.copyOf(names);
		}

		private static int count(String option, String value) {
			try {
				int number = Integer.parseInt(value);
				if (number >= 1) {
					return number;
				}
			}
			catch (NumberFormatException ex) {
				// reported below
			}
			throw new IllegalArgumentException(option + " expects whole numbers >= 1, got '" + value + "'");
		}

		private static int nonNegativeWhole(String option, String value) {
			try {
				int number = Integer.parseInt(value);
				if (number >= 0) {
					return number;
				}
			}
			catch (NumberFormatException ex) {
				// reported below
			}
			throw new IllegalArgumentException(option + " expects a whole number >= 0, got '" + value + "'");
		}

		private static double nonNegative(String option, String value) {
			try {
				double number = Double.parseDouble(value);
				if (number >= 0 && !Double.isInfinite(number)) {
					return number;
				}
			}
			catch (NumberFormatException ex) {
				// reported below
			}
			throw new IllegalArgumentException(option + " expects a number >= 0, got '" + value + "'");
		}

		long sharingDelayMicros() {
			return Math.round(sharingDelayMillis * 1000);
		}

		private static double positive(String option, String value) {
			try {
				double number = Double.parseDouble(value);
				if (number > 0 && !Double.isInfinite(number)) {
					return number;
				}
			}
			catch (NumberFormatException ex) {
				// reported below
			}
			throw new IllegalArgumentException(option + " expects numbers > 0, got '" + value + "'");
		}

		/** The workload with this command line's replacements. */
		Workload apply(Workload workload) {
			Workload.Arrival arrival = workload.arrival();
			if (rate != null || ladder != null) {
				if (arrival.type() != Workload.Arrival.Type.POISSON) {
					throw new WorkloadException("--rate and --ladder need arrival type poisson, the file has "
							+ "closed-loop");
				}
				arrival = new Workload.Arrival(arrival.type(), (rate != null) ? rate : Double.NaN, 0,
						(ladder != null) ? List.copyOf(ladder) : List.of());
			}
			Workload.Cluster cluster = (engineScheduling != null)
					? workload.cluster().withSchedulingPolicy(engineScheduling) : workload.cluster();
			return new Workload(workload.name(), (seed != null) ? seed : workload.seed(), cluster, arrival,
					workload.requests(), (warmup != null) ? warmup : workload.warmup(), workload.gateways(),
					workload.shape(), workload.tenants(), (flowControl != null) ? flowControl : workload.flowControl());
		}
	}
}
