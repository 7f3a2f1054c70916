package io.infergate.bench.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.EngineEventListener;
import io.infergate.sim.engine.EngineRequest;
import io.infergate.sim.engine.MetricsSnapshot;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.VirtualTimeEngine;

/**
 * How fast the simulator replays a workload in virtual time: simulated requests per wall-clock second for the
 * SGLang generated-shared-prefix shape (groups × 2048-token system prompt + 128-token question, 256 output tokens)
 * with Poisson arrivals, on a cluster of H100-profile engines with DESIGN's defaults. Requests go to the engine
 * holding the longest cached prefix (the oracle query), ties to the one with the fewest running plus waiting
 * requests.
 *
 * <p>Usage: {@code VirtualTimeSpeed [--requests 1000] [--engines 8] [--groups 64] [--rate 400] [--seed 42]
 * [--runs 1]}. Prints one line per run; the wall time covers engine creation, routing, submission and draining,
 * not the generation of the prompt tokens.
 */
public final class VirtualTimeSpeed {

	private static final int SYSTEM_PROMPT_TOKENS = 2048;

	private static final int QUESTION_TOKENS = 128;

	private static final int OUTPUT_TOKENS = 256;

	private VirtualTimeSpeed() {
	}

	public static void main(String[] args) {
		int requests = intArg(args, "--requests", 1000);
		int engines = intArg(args, "--engines", 8);
		int groups = intArg(args, "--groups", 64);
		double ratePerSecond = Double.parseDouble(arg(args, "--rate", "400"));
		long seed = Long.parseLong(arg(args, "--seed", "42"));
		int runs = intArg(args, "--runs", 1);
		System.out.printf(Locale.ROOT,
				"workload: %d requests, %d groups x (%d + %d) prompt tokens, %d output tokens, Poisson %.0f req/s, "
						+ "%d engines (%s)%n",
				requests, groups, SYSTEM_PROMPT_TOKENS, QUESTION_TOKENS, OUTPUT_TOKENS, ratePerSecond, engines,
				PerfProfile.LLAMA_3_1_8B_H100.name());
		Workload workload = Workload.sharedPrefix(requests, groups, ratePerSecond, seed);
		for (int run = 1; run <= runs; run++) {
			replay(workload, engines, run);
		}
	}

	/** Arrival times and prompts, generated before the timed replay. */
	private record Workload(long[] arrivalMicros, int[][] prompts) {

		static Workload sharedPrefix(int requests, int groups, double ratePerSecond, long seed) {
			SplittableRandom random = new SplittableRandom(seed);
			int[][] systemPrompts = new int[groups][];
			for (int group = 0; group < groups; group++) {
				systemPrompts[group] = randomTokens(random, SYSTEM_PROMPT_TOKENS);
			}
			long[] arrivals = new long[requests];
			int[][] prompts = new int[requests][];
			double nowSeconds = 0;
			for (int i = 0; i < requests; i++) {
				nowSeconds += -Math.log(1 - random.nextDouble()) / ratePerSecond;
				arrivals[i] = (long) (nowSeconds * 1e6);
				int[] prompt = Arrays.copyOf(systemPrompts[random.nextInt(groups)],
						SYSTEM_PROMPT_TOKENS + QUESTION_TOKENS);
				System.arraycopy(randomTokens(random, QUESTION_TOKENS), 0, prompt, SYSTEM_PROMPT_TOKENS,
						QUESTION_TOKENS);
				prompts[i] = prompt;
			}
			return new Workload(arrivals, prompts);
		}

		private static int[] randomTokens(SplittableRandom random, int length) {
			int[] tokens = new int[length];
			for (int i = 0; i < length; i++) {
				tokens[i] = random.nextInt(128_000);
			}
			return tokens;
		}
	}

	/** Counts what the engines report, across the cluster. */
	private static final class Tally implements EngineEventListener {

		int finished;

		long ttftMicrosSum;

		long lastFinishMicros;

		@Override
		public void onFirstToken(EngineRequest request, long timeMicros) {
			this.ttftMicrosSum += timeMicros - request.arrivalMicros();
		}

		@Override
		public void onFinished(EngineRequest request, long timeMicros) {
			this.finished++;
			this.lastFinishMicros = Math.max(this.lastFinishMicros, timeMicros);
		}
	}

	private static void replay(Workload workload, int engineCount, int run) {
		long startNanos = System.nanoTime();
		Tally tally = new Tally();
		List<VirtualTimeEngine> engines = new ArrayList<>();
		for (int i = 0; i < engineCount; i++) {
			engines.add(new VirtualTimeEngine(EngineConfig.defaults(), tally, 0));
		}
		int requests = workload.arrivalMicros().length;
		for (int i = 0; i < requests; i++) {
			long arrival = workload.arrivalMicros()[i];
			int[] prompt = workload.prompts()[i];
			VirtualTimeEngine chosen = null;
			int chosenCached = -1;
			int chosenLoad = Integer.MAX_VALUE;
			for (VirtualTimeEngine engine : engines) {
				engine.advanceTo(arrival);
				int cached = engine.cachedPrefixTokens(prompt, null);
				MetricsSnapshot metrics = engine.metrics();
				int load = metrics.numRequestsRunning() + metrics.numRequestsWaiting();
				if (cached > chosenCached || (cached == chosenCached && load < chosenLoad)) {
					chosen = engine;
					chosenCached = cached;
					chosenLoad = load;
				}
			}
			chosen.submit(arrival, new EngineRequest(prompt, null, OUTPUT_TOKENS));
		}
		for (VirtualTimeEngine engine : engines) {
			engine.runUntilIdle();
		}
		long wallNanos = System.nanoTime() - startNanos;
		long queries = 0;
		long hits = 0;
		long preemptions = 0;
		long generated = 0;
		for (VirtualTimeEngine engine : engines) {
			MetricsSnapshot metrics = engine.metrics();
			queries += metrics.prefixCacheQueryTokens();
			hits += metrics.prefixCacheHitTokens();
			preemptions += metrics.numPreemptions();
			generated += metrics.generationTokens();
		}
		double wallSeconds = wallNanos / 1e9;
		System.out.printf(Locale.ROOT,
				"run %d: %d requests finished, %d tokens generated, simulated %.2f s in %.3f s wall: "
						+ "%.0f simulated requests per wall second; mean TTFT %.1f ms, prefix hit rate %.3f, "
						+ "%d preemptions%n",
				run, tally.finished, generated, tally.lastFinishMicros / 1e6, wallSeconds, tally.finished / wallSeconds,
				tally.ttftMicrosSum / 1e3 / Math.max(1, tally.finished), (double) hits / Math.max(1, queries),
				preemptions);
	}

	private static String arg(String[] args, String name, String defaultValue) {
		for (int i = 0; i < args.length - 1; i++) {
			if (args[i].equals(name)) {
				return args[i + 1];
			}
		}
		return defaultValue;
	}

	private static int intArg(String[] args, String name, int defaultValue) {
		return Integer.parseInt(arg(args, name, Integer.toString(defaultValue)));
	}
}
