package io.infergate.bench.quality;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.infergate.bench.quality.replay.Replay;
import io.infergate.bench.quality.replay.RunResult;
import io.infergate.bench.quality.report.Figures;
import io.infergate.bench.quality.report.ProgressBar;
import io.infergate.bench.quality.report.ReportWriter;
import io.infergate.bench.quality.report.ResultsJson;
import io.infergate.bench.quality.report.ResultsJson.RateResults;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadException;
import io.infergate.bench.quality.workload.WorkloadParser;

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
			policy (a scheduling profile name; 'oracle' routes on the engines' true prefix-cache state), and writes
			DIR/results.json, DIR/report.md and PNG charts.

			Options:
			  --workload FILE   workload YAML (DESIGN.md, "Bench workload and results format")
			  --policies LIST   comma-separated profile names, e.g. round-robin,least-request,default
			  --out DIR         output directory, created if missing
			  --rate R          Poisson rate in requests/s, replacing the file's rate and ladder
			  --ladder R1,R2    Poisson rates run in turn, replacing the file's rate and ladder
			  --seed N          replaces the file's seed
			  --help            this text

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
			if (arg.equals("--help") || arg.startsWith("--workload") || arg.startsWith("--policies")
					|| arg.startsWith("--out")) {
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
		Workload workload;
		try {
			workload = options.apply(WorkloadParser.parse(options.workload));
		}
		catch (WorkloadException ex) {
			return usageError("workload " + options.workload + ": " + ex.getMessage());
		}
		Set<String> known = Replay.policies();
		for (String policy : options.policies) {
			if (!known.contains(policy)) {
				return usageError("unknown policy '" + policy + "'; defined policies: "
						+ String.join(", ", new TreeSet<>(known)));
			}
		}
		try {
			Files.createDirectories(options.out);
		}
		catch (IOException | RuntimeException ex) {
			return usageError("cannot create output directory " + options.out + ": " + ex.getMessage());
		}
		List<Double> rates = workload.arrival().rates();
		ProgressBar progress = new ProgressBar(err, terminal,
				(long) rates.size() * options.policies.size() * workload.totalRequests());
		List<RateResults> results = new ArrayList<>();
		List<Map<String, double[]>> ttfts = new ArrayList<>();
		List<String> timings = new ArrayList<>();
		for (double rate : rates) {
			Map<String, Figures> byPolicy = new LinkedHashMap<>();
			Map<String, double[]> ttftByPolicy = new LinkedHashMap<>();
			for (String policy : options.policies) {
				progress.startRun(policy + (Double.isNaN(rate) ? "" : " @ " + ResultsJson.rateKey(rate) + " req/s"),
						workload.totalRequests());
				long startNanos = System.nanoTime();
				RunResult run = new Replay(workload, policy, rate, progress).run();
				timings.add(String.format(Locale.ROOT, "%s: %d requests, %.1f s simulated, %.1f s wall", policy,
						run.issued(), run.endMicros() / 1e6, (System.nanoTime() - startNanos) / 1e9));
				byPolicy.put(policy, Figures.of(run));
				ttftByPolicy.put(policy, Figures.sortedTtftMillis(run));
			}
			results.add(new RateResults(rate, byPolicy));
			ttfts.add(ttftByPolicy);
		}
		progress.finish();
		try {
			ReportWriter.write(options.out, workload, commandLine(args), results, ttfts);
		}
		catch (IOException ex) {
			err.println("routing-bench: cannot write the report to " + options.out + ": " + ex.getMessage());
			return 1;
		}
		for (RateResults rate : results) {
			StringBuilder table = new StringBuilder();
			if (!Double.isNaN(rate.ratePerSecond())) {
				table.append(String.format(Locale.ROOT, "%n%s at %s requests/s%n", workload.name(),
						ResultsJson.rateKey(rate.ratePerSecond())));
			}
			ReportWriter.table(table, rate.policies());
			out.print(table);
		}
		out.println("Replays (wall time includes each run's Spring context): " + String.join("; ", timings));
		out.println("Wrote " + options.out.resolve("results.json") + " and " + options.out.resolve("report.md"));
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
				if (!List.of("--workload", "--policies", "--out", "--rate", "--ladder", "--seed").contains(arg)) {
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
				if (options.workload == null) {
					throw new IllegalArgumentException("missing --workload FILE");
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
			return new Workload(workload.name(), (seed != null) ? seed : workload.seed(), workload.cluster(), arrival,
					workload.requests(), workload.warmup(), workload.shape());
		}
	}
}
