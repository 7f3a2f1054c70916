package io.infergate.bench.quality.defaults;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

import io.infergate.bench.quality.replay.Policy;
import io.infergate.bench.quality.replay.Replay;
import io.infergate.bench.quality.replay.RunResult;
import io.infergate.bench.quality.report.Figures;
import io.infergate.bench.quality.report.ProgressBar;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadException;
import io.infergate.bench.quality.workload.WorkloadParser;
import io.infergate.routing.scheduling.config.ShippedProfiles;

/**
 * {@code routing-bench.jar compare-defaults}: replays the routing workloads under every shipped profile, alone and
 * behind several gateway replicas that share their dispatches, and writes the {@link Comparison} that decides which
 * profile ships as {@code default}.
 * <p>
 * Exit status 0 when it ran (whatever the verdict), 2 for a bad command line or workload file.
 */
public final class CompareDefaultsCommand {

	public static final String NAME = "compare-defaults";

	/** The workloads that measure placement; the flow-control ones measure admission and are left out. */
	static final List<String> WORKLOADS = List.of("shared-prefix", "multi-turn-chat", "no-sharing", "llm-d-prefix",
			"lora-mix", "heterogeneous", "shared-prefix-live", "shared-prefix-10k");

	static final String USAGE = """
			Usage: java -jar routing-bench.jar compare-defaults --out DIR [options]

			Replays each workload under every shipped scheduling profile behind 1 gateway replica and behind N
			that share their dispatches (PROFILE+dispatch-sharing), and writes DIR/compare-defaults.md: TTFT p90 and
			prefix hit rate of every profile, the targets the default must meet, and which profile meets them best.

			Options:
			  --out DIR            output directory, created if missing
			  --workloads-dir DIR  where the workload files are (default bench/workloads)
			  --workloads LIST     workload names, default %s
			  --profiles LIST      candidate profiles, default every shipped profile
			  --gateways N         the replicated count (default 4)
			  --help               this text
			""".formatted(String.join(",", WORKLOADS));

	private final PrintStream out;

	private final PrintStream err;

	private final boolean terminal;

	public CompareDefaultsCommand(PrintStream out, PrintStream err, boolean terminal) {
		this.out = out;
		this.err = err;
		this.terminal = terminal;
	}

	/** The shipped profile names, in the order {@code infergate-profiles.yml} defines them. */
	public static List<String> shippedProfiles() {
		Set<String> names = new LinkedHashSet<>();
		String prefix = "infergate.scheduling.profiles.";
		for (PropertySource<?> document : ShippedProfiles.load((profile) -> false)) {
			if (document instanceof EnumerablePropertySource<?> enumerable) {
				for (String key : enumerable.getPropertyNames()) {
					if (key.startsWith(prefix)) {
						String rest = key.substring(prefix.length());
						int dot = rest.indexOf('.');
						names.add((dot < 0) ? rest : rest.substring(0, dot));
					}
				}
			}
		}
		return List.copyOf(names);
	}

	/** {@code args} without the command's name. */
	public int run(String[] args) {
		Path outDir = null;
		Path workloadsDir = Path.of("bench", "workloads");
		List<String> workloads = WORKLOADS;
		List<String> profiles = shippedProfiles();
		int replicas = 4;
		try {
			for (int i = 0; i < args.length; i++) {
				String arg = args[i];
				switch (arg) {
					case "--help" -> {
						out.print(USAGE);
						return 0;
					}
					case "--out" -> outDir = Path.of(value(args, ++i, arg));
					case "--workloads-dir" -> workloadsDir = Path.of(value(args, ++i, arg));
					case "--workloads" -> workloads = list(value(args, ++i, arg), arg);
					case "--profiles" -> profiles = list(value(args, ++i, arg), arg);
					case "--gateways" -> replicas = replicas(value(args, ++i, arg));
					default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
				}
			}
			if (outDir == null) {
				throw new IllegalArgumentException("--out DIR is required");
			}
		}
		catch (IllegalArgumentException ex) {
			return usage(ex.getMessage());
		}
		Set<String> known = Replay.policies();
		for (String profile : profiles) {
			if (!known.contains(profile)) {
				return usage("unknown profile '" + profile + "'; defined: " + String.join(", ", new TreeSet<>(known)));
			}
		}
		List<Workload> parsed = new ArrayList<>();
		for (String name : workloads) {
			Path file = workloadsDir.resolve(name + ".yaml");
			try {
				Workload workload = WorkloadParser.parse(file);
				if (workload.arrival().rates().size() != 1) {
					return usage("workload " + file + ": has a ladder of rates; give one rate");
				}
				parsed.add(workload);
			}
			catch (WorkloadException ex) {
				return usage("workload " + file + ": " + ex.getMessage());
			}
		}
		try {
			Files.createDirectories(outDir);
		}
		catch (IOException | RuntimeException ex) {
			return usage("cannot create output directory " + outDir + ": " + ex.getMessage());
		}
		List<Integer> counts = List.of(1, replicas);
		long total = 0;
		for (Workload workload : parsed) {
			total += workload.totalRequests() * counts.size() * profiles.size();
		}
		ProgressBar progress = new ProgressBar(err, terminal, total);
		List<Comparison.Row> rows = new ArrayList<>();
		for (Workload workload : parsed) {
			for (int gateways : counts) {
				Workload replicated = workload.withGateways(gateways);
				Map<String, Comparison.Cell> cells = new LinkedHashMap<>();
				for (String profile : profiles) {
					String policy = (gateways > 1) ? profile + Policy.DISPATCH_SHARING : profile;
					progress.startRun(workload.name() + ", " + policy + ", " + gateways + " gateways",
							replicated.totalRequests());
					RunResult run = new Replay(replicated, policy, workload.arrival().rates().get(0),
							Replay.DEFAULT_SHARING_DELAY_MICROS, progress).run();
					Figures figures = Figures.of(run);
					cells.put(profile, new Comparison.Cell(figures.ttftP90Ms(), figures.prefixHitRate()));
				}
				rows.add(new Comparison.Row(workload.name(), gateways, cells));
			}
		}
		progress.finish();
		Comparison comparison = new Comparison(profiles, rows);
		String markdown = comparison.markdown("java -jar bench/target/routing-bench.jar " + NAME + " "
				+ String.join(" ", Arrays.asList(args)));
		try {
			Files.writeString(outDir.resolve("compare-defaults.md"), markdown);
		}
		catch (IOException ex) {
			err.println("routing-bench: cannot write " + outDir.resolve("compare-defaults.md") + ": " + ex.getMessage());
			return 1;
		}
		out.print(markdown);
		return 0;
	}

	private int usage(String problem) {
		err.println("routing-bench " + NAME + ": " + problem + " (--help for usage)");
		return 2;
	}

	private static String value(String[] args, int index, String option) {
		if (index >= args.length || args[index].startsWith("--")) {
			throw new IllegalArgumentException(option + " needs a value");
		}
		return args[index];
	}

	private static List<String> list(String value, String option) {
		List<String> items = Arrays.stream(value.split(",")).map(String::trim).filter((item) -> !item.isEmpty())
			.toList();
		if (items.isEmpty()) {
			throw new IllegalArgumentException(option + " needs at least one name");
		}
		return items;
	}

	private static int replicas(String value) {
		try {
			int count = Integer.parseInt(value);
			if (count >= 2) {
				return count;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new IllegalArgumentException("--gateways must be an integer >= 2, got '" + value + "'");
	}
}
