package io.infergate.bench.quality.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

import io.infergate.bench.quality.workload.BenchRequest;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.Workload.Tenant;
import io.infergate.bench.quality.workload.WorkloadRequests;
import io.infergate.simtokenizer.StandInChatTemplate.Message;
import io.infergate.sim.engine.PerfProfile;

/**
 * A capture as a workload: its routed requests in arrival order, each rebuilt from its shape alone.
 * <p>
 * A capture holds no text, so each request's prompt is made up: every entry of its block-hash chain becomes one
 * block of random text drawn from that hash (so two requests sharing the first k entries share their first k blocks of
 * text, and the prefix caches see exactly the sharing the capture recorded), and the characters past the last full
 * block, up to the prompt's length (its tokens × 4, the simulator tokenizer's ratio), are drawn from the request's
 * position. The prompt is sent as one user message. The output length is the tokens the model server reported, else
 * the request's {@code max_tokens}, else {@value #DEFAULT_OUTPUT_TOKENS}. A request keeps its priority; its tenant is
 * the capture's keyed tenant value.
 * <p>
 * <b>Conversations.</b> A chat client sends a conversation's whole history with each turn, so a request whose
 * block-hash chain starts with the whole chain of an earlier, shorter request that had ended before it arrived is
 * taken as that request's next turn (the longest such earlier request not already followed). A replay sends such a
 * follow-up its captured think time (its arrival minus the earlier request's end) after the earlier request ends in
 * the replay, so conversations slow down under a slower policy, as their users would have waited; every other request
 * arrives at its captured time. {@link #openLoop()} drops the links: every request at its captured time.
 * <p>
 * Requests the gateway turned away before routing (no pool: 400, 401, 403, 404, 413) are left out: no policy routes
 * them. Every routed request goes to the replay's one simulated pool, whatever pool served it; its LoRA adapter is
 * kept when the replay's cluster serves that adapter, else it is sent to the base model.
 */
public final class Trace {

	/** The output length of a request that reported none and set no {@code max_tokens}. */
	public static final int DEFAULT_OUTPUT_TOKENS = 256;

	/**
	 * The cluster a trace replays on when none is given: {@code bench/workloads/multi-turn-chat.yaml}'s, 8 pods of
	 * Llama 3.1 8B on an H100 with 29,000 KV blocks of 16 tokens, 256 sequences and 8,192 batched tokens, no adapters.
	 */
	public static final Workload.Cluster DEFAULT_CLUSTER = new Workload.Cluster(8, PerfProfile.LLAMA_3_1_8B_H100,
			29_000, 16, 256, 8192, 0, List.of(), List.of());

	/** Characters per token of the made-up prompts: the simulator tokenizer's ratio. */
	private static final int CHARS_PER_TOKEN = 4;

	private static final long TAIL_STREAM = 0x5DEECE66DL;

	private final String name;

	private final List<TraceRecord> records;

	private final long[] arrivalMicros;

	private final double speed;

	private final int skipped;

	private final int defaultedOutputs;

	private final Set<String> pools;

	private final Map<String, Double> tenantShares;

	private final Map<String, Integer> tenantPriorities;

	private Set<String> servedAdapters = Set.of();

	/** Per request, the earlier request it follows in its conversation, or -1. */
	private final int[] predecessor;

	/** Per request, the request that follows it in its conversation, or -1. */
	private final int[] follower;

	/** Per request with a predecessor, virtual µs from the predecessor's end to its arrival. */
	private final long[] thinkMicros;

	private int followUps;

	private Trace(String name, List<TraceRecord> records, double speed, int skipped) {
		this.name = name;
		this.records = records;
		this.speed = speed;
		this.skipped = skipped;
		this.arrivalMicros = new long[records.size()];
		long start = records.isEmpty() ? 0 : records.get(0).arrivalMs();
		int defaulted = 0;
		Set<String> seenPools = new TreeSet<>();
		Map<String, Integer> counts = new TreeMap<>();
		Map<String, Map<Integer, Integer>> priorities = new HashMap<>();
		for (int i = 0; i < arrivalMicros.length; i++) {
			TraceRecord record = records.get(i);
			arrivalMicros[i] = Math.round((record.arrivalMs() - start) * 1000 / speed);
			if (record.outputTokens() <= 0 && record.maxTokens() <= 0) {
				defaulted++;
			}
			seenPools.add(record.pool());
			if (record.tenant() != null) {
				counts.merge(record.tenant(), 1, Integer::sum);
				priorities.computeIfAbsent(record.tenant(), (tenant) -> new HashMap<>())
					.merge(record.priority(), 1, Integer::sum);
			}
		}
		this.defaultedOutputs = defaulted;
		this.predecessor = new int[records.size()];
		this.follower = new int[records.size()];
		this.thinkMicros = new long[records.size()];
		linkConversations();
		this.pools = Set.copyOf(seenPools);
		this.tenantShares = new LinkedHashMap<>();
		this.tenantPriorities = new HashMap<>();
		counts.forEach((tenant, count) -> {
			tenantShares.put(tenant, count / (double) records.size());
			tenantPriorities.put(tenant, priorities.get(tenant)
				.entrySet()
				.stream()
				.max(Map.Entry.<Integer, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
				.orElseThrow()
				.getKey());
		});
	}

	/**
	 * Reads a capture: a file, or a directory of capture files.
	 *
	 * @param speed how many times faster than recorded the requests arrive
	 * @param fromMs the first arrival kept, epoch ms ({@link Long#MIN_VALUE} for all)
	 * @param toMs arrivals kept before this instant, epoch ms ({@link Long#MAX_VALUE} for all)
	 * @param maxRequests at most this many routed requests are kept, the earliest; more is an error
	 */
	public static Trace read(Path path, double speed, long fromMs, long toMs, int maxRequests) {
		if (!(speed > 0) || Double.isInfinite(speed)) {
			throw new IllegalArgumentException("speed must be a number > 0, got " + speed);
		}
		List<TraceRecord> routed = new ArrayList<>();
		int[] skipped = new int[1];
		TraceReader.read(TraceReader.files(path), (record) -> {
			if (record.arrivalMs() < fromMs || record.arrivalMs() >= toMs) {
				return;
			}
			if (!record.routed()) {
				skipped[0]++;
				return;
			}
			if (routed.size() >= maxRequests) {
				throw new TraceException(path + ": more than " + maxRequests + " routed requests in the window");
			}
			routed.add(record);
		});
		if (routed.isEmpty()) {
			throw new TraceException(path + ": no routed request to replay"
					+ ((skipped[0] > 0) ? " (" + skipped[0] + " turned away before routing)" : "")
					+ ((fromMs != Long.MIN_VALUE || toMs != Long.MAX_VALUE) ? " in the window" : ""));
		}
		// records are written as requests end: put them in arrival order, file order breaking ties
		routed.sort(Comparator.comparingLong(TraceRecord::arrivalMs));
		return new Trace(path.getFileName().toString(), routed, speed, skipped[0]);
	}

	/**
	 * Finds each request's previous turn: the latest request ending with a hash of its chain before the last, so its
	 * whole chain is a strict prefix of this one's, that ended before this one arrived and no other request follows.
	 * The chain hashes are chained, so one equal hash means an equal prefix.
	 */
	private void linkConversations() {
		Arrays.fill(predecessor, -1);
		Arrays.fill(follower, -1);
		Map<Long, Integer> byLastHash = new HashMap<>();
		for (int j = 0; j < records.size(); j++) {
			TraceRecord record = records.get(j);
			long[] chain = record.blocks();
			for (int m = chain.length - 2; m >= 0; m--) {
				Integer earlier = byLastHash.get(chain[m]);
				if (earlier == null) {
					continue;
				}
				TraceRecord previous = records.get(earlier);
				if (follower[earlier] < 0 && previous.endMs() <= record.arrivalMs()) {
					predecessor[j] = earlier;
					follower[earlier] = j;
					thinkMicros[j] = Math.round((record.arrivalMs() - previous.endMs()) * 1000 / speed);
					followUps++;
				}
				break;
			}
			if (chain.length > 0 && !Double.isNaN(record.durationMs())) {
				byLastHash.put(chain[chain.length - 1], j);
			}
		}
	}

	/** This trace with every request arriving at its captured time, conversations or not. */
	public Trace openLoop() {
		Arrays.fill(predecessor, -1);
		Arrays.fill(follower, -1);
		Arrays.fill(thinkMicros, 0);
		followUps = 0;
		return this;
	}

	/**
	 * The first request from {@code index} on that arrives at its own time rather than as a conversation's next turn,
	 * or -1 when none is left.
	 */
	public int nextArrival(int index) {
		for (int i = index; i < predecessor.length; i++) {
			if (predecessor[i] < 0) {
				return i;
			}
		}
		return -1;
	}

	/** The earlier request request {@code index} follows in its conversation, or -1: it arrives at its own time. */
	public int predecessor(int index) {
		return predecessor[index];
	}

	/** The request that follows request {@code index} in its conversation, or -1. */
	public int follower(int index) {
		return follower[index];
	}

	/** How long after its predecessor ends request {@code index} is sent, virtual µs. */
	public long thinkMicros(int index) {
		return thinkMicros[index];
	}

	/**
	 * This trace as a workload on {@code cluster}: every request replayed, the first {@code warmup} left out of the
	 * figures, one gateway, the tenants by their share when there are several.
	 *
	 * @param flowControl the gateways' flow control, or null for the gateway's default
	 */
	public Workload workload(Workload.Cluster cluster, int warmup, Boolean flowControl) {
		if (warmup >= records.size()) {
			throw new TraceException(name + ": --warmup " + warmup + " leaves nothing to measure of its "
					+ records.size() + " routed requests");
		}
		this.servedAdapters = Set.copyOf(cluster.adapters());
		List<Tenant> tenants = new ArrayList<>();
		if (tenantShares.size() > 1) {
			tenantShares.forEach((tenant, share) -> tenants.add(new Tenant(tenant, share,
					tenantPriorities.get(tenant), 1.0)));
		}
		return new Workload(name, 0, cluster, new Workload.Arrival(Workload.Arrival.Type.TRACE, Double.NaN, 0,
				List.of()), records.size() - warmup, warmup, 1, new Workload.Captured(this), tenants, flowControl);
	}

	/** Routed requests. */
	public int size() {
		return records.size();
	}

	/** When request {@code index} arrives, virtual µs after the first. */
	public long arrivalMicros(int index) {
		return arrivalMicros[index];
	}

	/** Request {@code index}, its prompt made up from its shape. */
	public BenchRequest request(int index) {
		TraceRecord record = records.get(index);
		int blockChars = record.blockSizeChars();
		long[] blocks = record.blocks();
		int length = Math.max(record.promptTokens() * CHARS_PER_TOKEN, blocks.length * blockChars);
		StringBuilder text = new StringBuilder(length);
		for (long hash : blocks) {
			WorkloadRequests.appendText(text, new SplittableRandom(hash), blockChars);
		}
		WorkloadRequests.appendText(text, new SplittableRandom(TAIL_STREAM * 31 + index), length - text.length());
		String adapter = (record.adapter() != null && servedAdapters.contains(record.adapter())) ? record.adapter()
				: null;
		int output = (record.outputTokens() > 0) ? record.outputTokens()
				: (record.maxTokens() > 0) ? record.maxTokens() : DEFAULT_OUTPUT_TOKENS;
		return new BenchRequest(null, adapter, List.of(new Message("user", text.toString())), output);
	}

	/** Who sent request {@code index}, with that request's own priority; null when the capture names no tenant. */
	public Tenant tenant(int index) {
		TraceRecord record = records.get(index);
		if (record.tenant() == null) {
			return null;
		}
		return new Tenant(record.tenant(), tenantShares.get(record.tenant()), record.priority(), 1.0);
	}

	/** How long the replayed requests take to arrive, virtual µs. */
	public long spanMicros() {
		return arrivalMicros[arrivalMicros.length - 1];
	}

	@Override
	public String toString() {
		return String.format(Locale.ROOT, "trace %s: %d routed requests over %.1f s (speed %s)%s%s, pools %s", name,
				records.size(), spanMicros() / 1e6, speed,
				(skipped > 0) ? ", " + skipped + " turned away before routing left out" : "",
				(defaultedOutputs > 0) ? ", " + defaultedOutputs + " without output or max_tokens sent "
						+ DEFAULT_OUTPUT_TOKENS + " output tokens" : "",
				pools) + String.format(Locale.ROOT, ", %d sent as conversations' next turns after their previous "
						+ "turn ended", followUps);
	}
}
