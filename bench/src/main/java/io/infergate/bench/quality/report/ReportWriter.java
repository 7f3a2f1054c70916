package io.infergate.bench.quality.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.infergate.bench.quality.report.ResultsJson.RateResults;
import io.infergate.bench.quality.workload.Workload;

/** Writes {@code report.md}, its PNG charts and {@code results.json} into the output directory. */
public final class ReportWriter {

	private ReportWriter() {
	}

	/**
	 * @param command the command line that produced the run, quoted in the report
	 * @param ttftByRate per rate (same order as {@code rates}), each policy's sorted TTFTs in ms
	 */
	public static void write(Path outDir, Workload workload, String command, List<RateResults> rates,
			List<Map<String, double[]>> ttftByRate) throws IOException {
		boolean ladder = !workload.arrival().ladder().isEmpty();
		boolean flowControl = ResultsJson.showsFlowControl(rates.stream().map(RateResults::policies).toList());
		Files.writeString(outDir.resolve("results.json"),
				ResultsJson.write(workload.name(), rates, ladder, flowControl), StandardCharsets.UTF_8);
		StringBuilder md = new StringBuilder();
		md.append("# Routing quality: ").append(workload.name()).append("\n\n");
		md.append(describe(workload)).append("\n\n");
		md.append("Reproduce:\n\n    ").append(command).append("\n\n");
		for (int r = 0; r < rates.size(); r++) {
			RateResults rate = rates.get(r);
			String suffix = ladder ? "-" + ResultsJson.rateKey(rate.ratePerSecond()) : "";
			String heading = Double.isNaN(rate.ratePerSecond()) ? "Results"
					: "Results at " + ResultsJson.rateKey(rate.ratePerSecond()) + " requests/s";
			md.append("## ").append(heading).append("\n\n");
			table(md, rate.policies(), flowControl);
			tenantsTable(md, rate.policies());
			String chart = "ttft-cdf" + suffix + ".png";
			Charts.ttftCdf(outDir.resolve(chart).toFile(), workload.name() + ": TTFT CDF"
					+ (ladder ? " at " + ResultsJson.rateKey(rate.ratePerSecond()) + " req/s" : ""), ttftByRate.get(r));
			md.append("\n![TTFT CDF](").append(chart).append(")\n\n");
		}
		if (ladder) {
			md.append("## Against the offered rate\n\n");
			Charts.againstRate(outDir.resolve("throughput-vs-rate.png").toFile(),
					workload.name() + ": output throughput", "output tokens/s", rates, Figures::outputTokensPerSec);
			Charts.againstRate(outDir.resolve("ttft-p90-vs-rate.png").toFile(), workload.name() + ": TTFT p90",
					"TTFT p90 (ms)", rates, Figures::ttftP90Ms);
			md.append("![throughput against rate](throughput-vs-rate.png)\n\n");
			md.append("![TTFT p90 against rate](ttft-p90-vs-rate.png)\n\n");
		}
		md.append(DEFINITIONS);
		Files.writeString(outDir.resolve("report.md"), md.toString(), StandardCharsets.UTF_8);
	}

	/**
	 * The report of one workload run behind several numbers of gateway replicas: a summary of TTFT p90 and prefix hit
	 * rate against the number, then each number's full table and TTFT CDF.
	 * @param byGateways each number's figures by policy, in the order run
	 * @param ttftByGateways each number's policies' sorted TTFTs in ms
	 */
	public static void writeByGateways(Path outDir, Workload workload, String command,
			Map<Integer, Map<String, Figures>> byGateways, Map<Integer, Map<String, double[]>> ttftByGateways)
			throws IOException {
		boolean flowControl = ResultsJson.showsFlowControl(byGateways.values());
		Files.writeString(outDir.resolve("results.json"),
				ResultsJson.writeByGateways(workload.name(), byGateways, flowControl), StandardCharsets.UTF_8);
		StringBuilder md = new StringBuilder();
		md.append("# Routing quality: ").append(workload.name()).append(" behind ")
			.append(byGateways.keySet()).append(" gateway replicas\n\n");
		md.append(describe(workload.withGateways(1))).append(" Each run puts N gateway replicas, each with its own "
				+ "routing state, behind a round-robin load balancer.\n\n");
		md.append("Reproduce:\n\n    ").append(command).append("\n\n");
		md.append("## Against the number of gateway replicas\n\n");
		gatewaysTable(md, byGateways);
		List<Integer> counts = List.copyOf(byGateways.keySet());
		List<Map<String, Figures>> runs = List.copyOf(byGateways.values());
		Charts.against(outDir.resolve("ttft-p90-vs-gateways.png").toFile(), workload.name() + ": TTFT p90",
				"gateway replicas", "TTFT p90 (ms)", counts, runs, Figures::ttftP90Ms);
		Charts.against(outDir.resolve("prefix-hit-vs-gateways.png").toFile(), workload.name() + ": prefix hit rate",
				"gateway replicas", "prefix hit rate", counts, runs, Figures::prefixHitRate);
		md.append("\n![TTFT p90 against gateway replicas](ttft-p90-vs-gateways.png)\n\n");
		md.append("![prefix hit rate against gateway replicas](prefix-hit-vs-gateways.png)\n\n");
		for (Map.Entry<Integer, Map<String, Figures>> entry : byGateways.entrySet()) {
			int n = entry.getKey();
			md.append("## ").append(n).append(n == 1 ? " gateway replica" : " gateway replicas").append("\n\n");
			table(md, entry.getValue(), flowControl);
			tenantsTable(md, entry.getValue());
			String chart = "ttft-cdf-gateways-" + n + ".png";
			Charts.ttftCdf(outDir.resolve(chart).toFile(), workload.name() + ": TTFT CDF, " + n + " gateway replicas",
					ttftByGateways.get(n));
			md.append("\n![TTFT CDF](").append(chart).append(")\n\n");
		}
		md.append(DEFINITIONS);
		Files.writeString(outDir.resolve("report.md"), md.toString(), StandardCharsets.UTF_8);
	}

	/**
	 * TTFT p90 and prefix hit rate of every policy at each number of gateway replicas, and the share of session turns
	 * that went to their session's previous pod when the workload has sessions.
	 */
	public static void gatewaysTable(StringBuilder md, Map<Integer, Map<String, Figures>> byGateways) {
		boolean sessions = byGateways.values()
			.stream()
			.flatMap((run) -> run.values().stream())
			.anyMatch((figures) -> !Double.isNaN(figures.sessionTurnsKept()));
		md.append("| policy |");
		byGateways.keySet().forEach((n) -> md.append(" TTFT p90 ms, N=").append(n).append(" |"));
		byGateways.keySet().forEach((n) -> md.append(" prefix hit, N=").append(n).append(" |"));
		if (sessions) {
			byGateways.keySet().forEach((n) -> md.append(" session turns kept, N=").append(n).append(" |"));
		}
		md.append("\n|---|").append("---:|".repeat((sessions ? 3 : 2) * byGateways.size())).append('\n');
		for (String policy : byGateways.values().iterator().next().keySet()) {
			md.append("| ").append(policy).append(" |");
			byGateways.values()
				.forEach((run) -> md.append(' ').append(fixed(run.get(policy).ttftP90Ms(), 1)).append(" |"));
			byGateways.values()
				.forEach((run) -> md.append(' ').append(fixed(run.get(policy).prefixHitRate(), 3)).append(" |"));
			if (sessions) {
				byGateways.values()
					.forEach((run) -> md.append(' ').append(fixed(run.get(policy).sessionTurnsKept(), 3)).append(" |"));
			}
			md.append('\n');
		}
	}

	/** The Markdown table of one rate's figures, one row per policy. */
	public static void table(StringBuilder md, Map<String, Figures> policies) {
		table(md, policies, false);
	}

	/**
	 * The same, with columns of requests flow control rejected and of the sustained request rate when
	 * {@code flowControl}.
	 */
	public static void table(StringBuilder md, Map<String, Figures> policies, boolean flowControl) {
		md.append("| policy | TTFT p50 ms | TTFT p90 ms | TTFT p99 ms | TPOT p50 ms | E2E p50 ms | E2E p99 ms "
				+ "| output tok/s | req/s | prefix hit | load CV | preempt | failed |"
				+ (flowControl ? " rejected | sustained req/s |" : "") + " sched µs p50 |\n");
		md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
			.append(flowControl ? "---:|---:|" : "")
			.append("---:|\n");
		for (Map.Entry<String, Figures> entry : policies.entrySet()) {
			Figures f = entry.getValue();
			md.append("| ").append(entry.getKey())
				.append(" | ").append(fixed(f.ttftP50Ms(), 1))
				.append(" | ").append(fixed(f.ttftP90Ms(), 1))
				.append(" | ").append(fixed(f.ttftP99Ms(), 1))
				.append(" | ").append(fixed(f.tpotP50Ms(), 2))
				.append(" | ").append(fixed(f.e2eP50Ms(), 0))
				.append(" | ").append(fixed(f.e2eP99Ms(), 0))
				.append(" | ").append(fixed(f.outputTokensPerSec(), 0))
				.append(" | ").append(fixed(f.requestsPerSec(), 1))
				.append(" | ").append(fixed(f.prefixHitRate(), 3))
				.append(" | ").append(fixed(f.loadSkewCv(), 3))
				.append(" | ").append(f.preemptions())
				.append(" | ").append(f.failed());
			if (flowControl) {
				md.append(" | ").append(f.rejected()).append(" | ").append(fixed(f.sustainedRequestsPerSec(), 1));
			}
			md.append(" | ").append(fixed(f.schedulerMicrosP50(), 1)).append(" |\n");
		}
	}

	/** Each policy's figures by tenant, when the workload names tenants. */
	public static void tenantsTable(StringBuilder md, Map<String, Figures> policies) {
		if (policies.values().stream().allMatch((figures) -> figures.byTenant().isEmpty())) {
			return;
		}
		md.append("\nBy tenant:\n\n");
		md.append("| policy | tenant | TTFT p50 ms | TTFT p90 ms | TTFT p99 ms | E2E p50 ms | output tok/s | req/s "
				+ "| failed | rejected |\n");
		md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
		for (Map.Entry<String, Figures> entry : policies.entrySet()) {
			for (Map.Entry<String, Figures> tenant : entry.getValue().byTenant().entrySet()) {
				Figures f = tenant.getValue();
				md.append("| ").append(entry.getKey())
					.append(" | ").append(tenant.getKey())
					.append(" | ").append(fixed(f.ttftP50Ms(), 1))
					.append(" | ").append(fixed(f.ttftP90Ms(), 1))
					.append(" | ").append(fixed(f.ttftP99Ms(), 1))
					.append(" | ").append(fixed(f.e2eP50Ms(), 0))
					.append(" | ").append(fixed(f.outputTokensPerSec(), 0))
					.append(" | ").append(fixed(f.requestsPerSec(), 1))
					.append(" | ").append(f.failed())
					.append(" | ").append(f.rejected())
					.append(" |\n");
			}
		}
	}

	private static String fixed(double value, int decimals) {
		return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%,." + decimals + "f", value);
	}

	private static String describe(Workload workload) {
		Workload.Cluster cluster = workload.cluster();
		Workload.Arrival arrival = workload.arrival();
		String arrivals = switch (arrival.type()) {
			case POISSON -> arrival.ladder().isEmpty()
					? "Poisson arrivals at " + ResultsJson.rateKey(arrival.rate()) + " requests/s"
					: "Poisson arrivals at each rate of " + arrival.ladder().stream().map(ResultsJson::rateKey).toList()
							+ " requests/s in turn";
			case CLOSED_LOOP -> "closed loop with " + arrival.concurrency() + " clients";
			case TRACE -> "arrivals as captured";
		};
		return String.format(Locale.ROOT,
				"%d pods (%s, %d KV blocks of %d tokens, max %d sequences, %d batched tokens%s%s), %s, "
						+ "%d measured requests after %d warm-up, shape %s, seed %d%s.",
				cluster.pods(), cluster.perfProfile().name(), cluster.kvBlocks(), cluster.blockSize(),
				cluster.maxNumSeqs(), cluster.maxNumBatchedTokens(),
				cluster.adapters().isEmpty() ? ""
						: ", adapters " + cluster.adapters() + " with " + cluster.maxLoras() + " slots",
				cluster.overrides().isEmpty() ? "" : ", overrides " + cluster.overrides().size(), arrivals,
				workload.requests(), workload.warmup(), workload.shape(), workload.seed(),
				workload.gateways() == 1 ? ""
						: ", " + workload.gateways() + " gateway replicas behind a round-robin load balancer")
				+ flowControlSetting(workload);
	}

	/** The workload's tenants and flow-control setting, when it names them. */
	private static String flowControlSetting(Workload workload) {
		StringBuilder text = new StringBuilder();
		if (!workload.tenants().isEmpty()) {
			text.append(" Tenants (share, priority, weight):");
			for (Workload.Tenant tenant : workload.tenants()) {
				text.append(String.format(Locale.ROOT, " %s (%s, %d, %s)", tenant.name(), tenant.share(),
						tenant.priority(), tenant.weight()));
			}
			text.append('.');
		}
		text.append(" Flow control ").append((workload.flowControl() == null) ? "as the gateway's default"
				: workload.flowControl() ? "on" : "off").append('.');
		text.append(" Engine scheduling ").append(workload.cluster().schedulingPolicy().cliName())
			.append(workload.cluster().priorityScheduling() ? " (the gateways forward each request's priority)" : "")
			.append('.');
		return text.toString();
	}

	private static final String DEFINITIONS = """
			## Definitions

			- Times are virtual: the simulated engines' step-time model, not this machine's speed. TTFT runs from the \
			request's arrival at the gateway to its first output token; TPOT is (last − first token time) / (output \
			tokens − 1); E2E runs from arrival to the last token.
			- Percentiles are nearest-rank over the measured requests that completed (warm-up requests are sent first \
			and left out).
			- Throughput (output tok/s, req/s) counts the measured requests over the measured window, from the first \
			measured arrival to the last measured completion.
			- Prefix hit: prompt tokens the engines took from their prefix caches over the prompt tokens they looked up, \
			summed over the pods from the first measured arrival to the end (engine counters, as \
			`vllm:prefix_cache_hits_total / vllm:prefix_cache_queries_total`).
			- Load CV: coefficient of variation (population standard deviation / mean) of the measured requests each pod \
			received; 0 is perfectly even.
			- Preempt: requests the engines preempted for lack of KV blocks in the measured window. Failed: measured \
			requests that got no pod or that the pod refused. Rejected (when shown): measured requests that the \
			gateway's flow control answered 429; req/s counts completed requests only, so it is goodput.
			- Session turns kept (when the workload has sessions and several replicas ran): of the measured turns after \
			a session's first, those that went to the pod of the session's previous turn, whichever replica routed each.
			- By tenant (when the workload names tenants): each tenant's measured requests; its throughput is over the \
			run's measured window, so the tenants' add up to the run's.
			- Sched µs p50: median wall-clock time of one routing decision on the machine that ran the bench; it is the \
			only figure that changes between runs of the same seed.
			""";
}
