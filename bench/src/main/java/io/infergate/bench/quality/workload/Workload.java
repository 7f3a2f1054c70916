package io.infergate.bench.quality.workload;

import java.util.List;
import java.util.Map;

import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.SchedulingPolicy;

/**
 * One workload file: the simulated cluster, how requests arrive, how many are measured, and what they look like.
 * Lengths are in tokens. The format is DESIGN.md's "Bench workload and results format".
 *
 * @param name the workload's name, as written in results
 * @param seed seeds every random choice: texts, lengths, arrivals, adapters and the pickers' randomness
 * @param cluster the simulated pods
 * @param arrival when requests arrive
 * @param requests requests measured, after the warm-up
 * @param warmup requests sent first and left out of every figure
 * @param gateways independent gateway replicas, each with its own routing state; requests are spread over them
 * round-robin, as a plain load balancer in front of them would
 * @param shape what each request is
 * @param tenants who sends the requests, in the file's order; empty when the file names none (every request is then
 * the gateway's anonymous caller)
 * @param flowControl whether the gateways hold requests while the pool is saturated; {@code null} when the file does
 * not say, which leaves the gateway's own default ({@code infergate.flow-control.enabled})
 */
public record Workload(String name, long seed, Cluster cluster, Arrival arrival, int requests, int warmup,
		int gateways, Shape shape, List<Tenant> tenants, Boolean flowControl) {

	/** A workload without tenants and with the gateway's own flow-control default. */
	public Workload(String name, long seed, Cluster cluster, Arrival arrival, int requests, int warmup, int gateways,
			Shape shape) {
		this(name, seed, cluster, arrival, requests, warmup, gateways, shape, List.of(), null);
	}

	public Workload {
		tenants = List.copyOf(tenants);
	}

	/** Requests sent in one run: warm-up and measured. */
	public int totalRequests() {
		return warmup + requests;
	}

	/** This workload behind {@code count} gateway replicas. */
	public Workload withGateways(int count) {
		return new Workload(name, seed, cluster, arrival, requests, warmup, count, shape, tenants, flowControl);
	}

	/**
	 * One sender of requests, as an API key's tenant and priority and the tenant's weight make it in the gateway.
	 *
	 * @param name the tenant's name
	 * @param share its part of the requests, relative to the other tenants' shares
	 * @param priority the priority of its requests; below 0 is sheddable
	 * @param weight its fairness weight in flow control
	 */
	public record Tenant(String name, double share, int priority, double weight) {
	}

	/**
	 * The pods: each has the cluster's engine settings, changed by the overrides naming it.
	 *
	 * @param adapters LoRA adapters every pod serves
	 * @param schedulingPolicy how every pod's engine orders its waiting requests: {@code fcfs}, or {@code priority}
	 * (vLLM's priority scheduling; the gateways then forward each request's priority, {@code engine-priority: vllm})
	 */
	public record Cluster(int pods, PerfProfile perfProfile, int kvBlocks, int blockSize, int maxNumSeqs,
			int maxNumBatchedTokens, int maxLoras, List<String> adapters, List<PodOverride> overrides,
			SchedulingPolicy schedulingPolicy) {

		/** Every pod's engine on FIFO scheduling. */
		public Cluster(int pods, PerfProfile perfProfile, int kvBlocks, int blockSize, int maxNumSeqs,
				int maxNumBatchedTokens, int maxLoras, List<String> adapters, List<PodOverride> overrides) {
			this(pods, perfProfile, kvBlocks, blockSize, maxNumSeqs, maxNumBatchedTokens, maxLoras, adapters,
					overrides, SchedulingPolicy.FCFS);
		}

		/** This cluster with every pod's engine scheduling by {@code policy}. */
		public Cluster withSchedulingPolicy(SchedulingPolicy policy) {
			return new Cluster(pods, perfProfile, kvBlocks, blockSize, maxNumSeqs, maxNumBatchedTokens, maxLoras,
					adapters, overrides, policy);
		}

		/** Whether the pods' engines schedule by priority, so the gateways forward it. */
		public boolean priorityScheduling() {
			return schedulingPolicy == SchedulingPolicy.PRIORITY;
		}

		/** The engine settings of pod {@code pod} (0-based). */
		public EngineConfig engineConfig(int pod) {
			PerfProfile profile = perfProfile;
			int blocks = kvBlocks;
			int seqs = maxNumSeqs;
			int batched = maxNumBatchedTokens;
			int loras = maxLoras;
			for (PodOverride override : overrides) {
				if (override.pod() != pod) {
					continue;
				}
				profile = (override.perfProfile() != null) ? override.perfProfile() : profile;
				blocks = (override.kvBlocks() != null) ? override.kvBlocks() : blocks;
				seqs = (override.maxNumSeqs() != null) ? override.maxNumSeqs() : seqs;
				batched = (override.maxNumBatchedTokens() != null) ? override.maxNumBatchedTokens() : batched;
				loras = (override.maxLoras() != null) ? override.maxLoras() : loras;
			}
			EngineConfig.Builder builder = EngineConfig.builder()
				.perfProfile(profile)
				.numKvBlocks(blocks)
				.blockSize(blockSize)
				.maxNumSeqs(seqs)
				.maxNumBatchedTokens(batched)
				.loraModules(adapters)
				.schedulingPolicy(schedulingPolicy);
			if (!adapters.isEmpty() || loras > 0) {
				builder.maxLoras(loras);
			}
			return builder.build();
		}
	}

	/** Settings of one pod that differ from the cluster's; null keeps the cluster's value. */
	public record PodOverride(int pod, PerfProfile perfProfile, Integer kvBlocks, Integer maxNumSeqs,
			Integer maxNumBatchedTokens, Integer maxLoras) {
	}

	/**
	 * Arrivals: Poisson at {@code rate} requests/s (each rate of {@code ladder} in turn, when given), closed-loop
	 * with {@code concurrency} clients that each send their next request when the previous one ends, or a capture's
	 * own arrival times ({@link Captured}).
	 */
	public record Arrival(Type type, double rate, int concurrency, List<Double> ladder) {

		public enum Type {
			POISSON, CLOSED_LOOP, TRACE
		}

		/** The rates to run, in order: the ladder, or the one rate; for closed-loop and traces one entry, NaN. */
		public List<Double> rates() {
			if (type != Type.POISSON) {
				return List.of(Double.NaN);
			}
			return ladder.isEmpty() ? List.of(rate) : ladder;
		}
	}

	/** What the requests look like. */
	public sealed interface Shape permits SharedPrefix, MultiTurn, RandomPrompts, LoraMix, Captured {

		String type();
	}

	/**
	 * SGLang's generated-shared-prefix: {@code groups} system prompts, each followed by its own questions. Requests
	 * take the groups × prompts-per-group pairs in a seeded random order, pass after pass, every question new.
	 */
	public record SharedPrefix(int groups, int promptsPerGroup, Length systemPromptLen, Length questionLen,
			Length outputLen) implements Shape {

		@Override
		public String type() {
			return "shared-prefix";
		}
	}

	/**
	 * Conversations whose history grows each turn: turn k's prompt is the optional system prompt, the k earlier user
	 * turns and replies, and the new user turn. A conversation's next turn is sent {@code thinkTimeMs} after the
	 * previous reply ends.
	 */
	public record MultiTurn(int conversations, int turns, Length systemPromptLen, Length userTurnLen,
			Length outputLen, Length thinkTimeMs) implements Shape {

		@Override
		public String type() {
			return "multi-turn";
		}
	}

	/** Prompts that share nothing: random text of {@code promptLen} tokens. */
	public record RandomPrompts(Length promptLen, Length outputLen) implements Shape {

		@Override
		public String type() {
			return "random";
		}
	}

	/**
	 * A base shape whose requests use LoRA adapters in the given proportions ({@code none} for the base model): one
	 * draw per group for shared-prefix, per conversation for multi-turn, per request for random prompts.
	 */
	public record LoraMix(Map<String, Double> adapterWeights, Shape base) implements Shape {

		public static final String NO_ADAPTER = "none";

		@Override
		public String type() {
			return "lora-mix";
		}
	}

	/** The requests of a capture, at its arrival times ({@link io.infergate.bench.quality.trace.Trace}). */
	public record Captured(io.infergate.bench.quality.trace.Trace trace) implements Shape {

		@Override
		public String type() {
			return "trace";
		}

		@Override
		public String toString() {
			return trace.toString();
		}
	}
}
