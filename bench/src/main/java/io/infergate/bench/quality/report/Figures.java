package io.infergate.bench.quality.report;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.infergate.bench.quality.replay.RequestRecord;
import io.infergate.bench.quality.replay.RunResult;

/**
 * The figures of one replay, named as in {@code results.json}. Percentiles are nearest-rank over the measured
 * requests that completed (p-th: the value at rank ⌈p·n⌉ of the sorted values); NaN when none completed.
 *
 * @param ttftP50Ms time to first token, arrival at the gateway to the first output token
 * @param tpotP50Ms time per output token after the first: (last − first token) / (output tokens − 1)
 * @param e2eP50Ms arrival to the last token
 * @param outputTokensPerSec output tokens of the measured requests over the measured window: from the first measured
 * arrival to the last measured completion
 * @param requestsPerSec measured requests completed over the same window
 * @param prefixHitRate prompt tokens the engines served from their prefix caches over the tokens they looked up, in
 * the measured window (engine counters, every pod)
 * @param loadSkewCv coefficient of variation (population standard deviation / mean) of the measured requests each pod
 * received; 0 is perfectly even
 * @param preemptions requests the engines preempted for lack of KV blocks in the measured window
 * @param failed measured requests that got no pod or that the pod refused
 * @param rejected measured requests that flow control answered 429 (shed, queue full, or wait expired); they are not
 * completed, so {@code requestsPerSec} is goodput
 * @param schedulerMicrosP50 wall-clock time of the routing decision (filters, scorers, picker), median over the
 * measured requests that were routed; the one figure that is not repeatable
 * @param flowControl whether the gateways' flow control was on
 * @param sustainedRequestsPerSec requests of any kind (warm-up included) completed while measured requests arrived,
 * from the first measured arrival to the last, per second: the rate the pods serve under the offered load, which
 * past capacity is the goodput. Unlike {@code requestsPerSec} it neither counts the drain after the last arrival
 * nor leaves out the warm-up requests still waiting or running in the window. NaN when the run kept no completion
 * times (a live run), and for a tenant
 * @param byTenant each tenant's figures, in the workload's order; empty when it names no tenants. A tenant's
 * throughput is over the whole run's measured window, so tenants' throughputs add up to the run's; its prefix hit
 * rate and preemptions are those of its own completed requests (each request's cached prompt tokens over its
 * prompt tokens), and its load CV is over its own requests per pod
 */
public record Figures(double ttftP50Ms, double ttftP90Ms, double ttftP99Ms, double tpotP50Ms, double e2eP50Ms,
		double e2eP99Ms, double outputTokensPerSec, double requestsPerSec, double prefixHitRate, double loadSkewCv,
		long preemptions, long failed, long rejected, double schedulerMicrosP50, boolean flowControl,
		double sustainedRequestsPerSec, double sessionTurnsKept, Map<String, Figures> byTenant) {

	public static Figures of(RunResult run) {
		return of(run, List.of());
	}

	/** The run's figures, and those of each tenant named in {@code tenants}. */
	public static Figures of(RunResult run, List<String> tenants) {
		long windowStart = Long.MAX_VALUE;
		long windowEnd = Long.MIN_VALUE;
		for (RequestRecord record : run.measured()) {
			windowStart = Math.min(windowStart, record.arrivalMicros());
			if (!record.failed() && record.completed()) {
				windowEnd = Math.max(windowEnd, record.finishMicros());
			}
		}
		double windowSeconds = (windowEnd > windowStart) ? (windowEnd - windowStart) / 1e6 : Double.NaN;
		double prefixHitRate = (run.prefixQueryTokens() > 0)
				? (double) run.prefixHitTokens() / run.prefixQueryTokens() : 0;
		Map<String, Figures> byTenant = new LinkedHashMap<>();
		for (String tenant : tenants) {
			List<RequestRecord> sent = run.measured()
				.stream()
				.filter((record) -> tenant.equals(record.tenant()))
				.toList();
			long[] perPod = new long[run.measuredRequestsPerPod().length];
			long promptTokens = 0;
			long cachedTokens = 0;
			long preemptions = 0;
			for (RequestRecord record : sent) {
				if (record.pod() >= 0) {
					perPod[record.pod()]++;
				}
				promptTokens += record.promptTokens();
				cachedTokens += record.cachedPromptTokens();
				preemptions += record.preemptions();
			}
			byTenant.put(tenant, of(sent, windowSeconds,
					(promptTokens > 0) ? (double) cachedTokens / promptTokens : 0, perPod, preemptions,
					run.flowControl(), Double.NaN, Map.of()));
		}
		return of(run.measured(), windowSeconds, prefixHitRate, run.measuredRequestsPerPod(), run.preemptions(),
				run.flowControl(), sustainedRequestsPerSec(run), Collections.unmodifiableMap(byTenant));
	}

	/** Completions of any request from the first measured arrival to the last, per second. */
	static double sustainedRequestsPerSec(RunResult run) {
		if (run.completionMicros().length == 0 || run.measured().isEmpty()) {
			return Double.NaN;
		}
		long first = run.measured().get(0).arrivalMicros();
		long last = run.measured().get(run.measured().size() - 1).arrivalMicros();
		if (last <= first) {
			return Double.NaN;
		}
		long completions = 0;
		for (long at : run.completionMicros()) {
			if (at >= first && at <= last) {
				completions++;
			}
		}
		return completions / ((last - first) / 1e6);
	}

	private static Figures of(List<RequestRecord> records, double windowSeconds, double prefixHitRate,
			long[] requestsPerPod, long preemptions, boolean flowControl, double sustainedRequestsPerSec,
			Map<String, Figures> byTenant) {
		int n = records.size();
		double[] ttft = new double[n];
		double[] e2e = new double[n];
		double[] tpot = new double[n];
		double[] scheduler = new double[n];
		int completed = 0;
		int routed = 0;
		int tpotCount = 0;
		long outputTokens = 0;
		long failed = 0;
		long rejected = 0;
		long laterTurns = 0;
		long keptTurns = 0;
		for (int i = 0; i < n; i++) {
			RequestRecord record = records.get(i);
			if (record.sameSessionPod() != null) {
				laterTurns++;
				keptTurns += record.sameSessionPod() ? 1 : 0;
			}
			if (record.rejected()) {
				rejected++;
				continue;
			}
			scheduler[routed++] = record.schedulerNanos() / 1000.0;
			if (record.failed()) {
				failed++;
				continue;
			}
			if (!record.completed()) {
				continue;
			}
			ttft[completed] = (record.firstTokenMicros() - record.arrivalMicros()) / 1000.0;
			e2e[completed] = (record.finishMicros() - record.arrivalMicros()) / 1000.0;
			completed++;
			outputTokens += record.outputTokens();
			if (record.outputTokens() > 1) {
				tpot[tpotCount++] = (record.finishMicros() - record.firstTokenMicros()) / 1000.0
						/ (record.outputTokens() - 1);
			}
		}
		return new Figures(percentile(ttft, completed, 0.50), percentile(ttft, completed, 0.90),
				percentile(ttft, completed, 0.99), percentile(tpot, tpotCount, 0.50), percentile(e2e, completed, 0.50),
				percentile(e2e, completed, 0.99), outputTokens / windowSeconds, completed / windowSeconds,
				prefixHitRate, coefficientOfVariation(requestsPerPod), preemptions, failed, rejected,
				percentile(scheduler, routed, 0.50), flowControl, sustainedRequestsPerSec,
				(laterTurns > 0) ? (double) keptTurns / laterTurns : Double.NaN, byTenant);
	}

	/** Nearest rank over the first {@code count} values (sorted in place); NaN when there are none. */
	static double percentile(double[] values, int count, double p) {
		if (count == 0) {
			return Double.NaN;
		}
		Arrays.sort(values, 0, count);
		int rank = (int) Math.ceil(p * count);
		return values[Math.max(0, rank - 1)];
	}

	static double coefficientOfVariation(long[] values) {
		if (values.length == 0) {
			return 0;
		}
		double mean = 0;
		for (long value : values) {
			mean += value;
		}
		mean /= values.length;
		if (mean == 0) {
			return 0;
		}
		double variance = 0;
		for (long value : values) {
			variance += (value - mean) * (value - mean);
		}
		return Math.sqrt(variance / values.length) / mean;
	}

	/** Time to first token of every measured request that completed, ms, sorted: for CDF charts. */
	public static double[] sortedTtftMillis(RunResult run) {
		return run.measured()
			.stream()
			.filter(RequestRecord::completed)
			.mapToDouble((record) -> (record.firstTokenMicros() - record.arrivalMicros()) / 1000.0)
			.sorted()
			.toArray();
	}
}
