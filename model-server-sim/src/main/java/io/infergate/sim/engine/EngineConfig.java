package io.infergate.sim.engine;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * Parameters of one simulated engine. Defaults follow an 8B model on one 80 GB GPU under vLLM V1: 256 sequences,
 * 29,000 KV blocks of 16 tokens, 8,192 batched tokens per step, the H100 step-time fit, 32,768-token context,
 * first-come-first-served scheduling.
 */
public final class EngineConfig {

	public static final int DEFAULT_MAX_NUM_SEQS = 256;

	public static final int DEFAULT_KV_BLOCKS = 29_000;

	public static final int DEFAULT_BLOCK_SIZE = 16;

	public static final int DEFAULT_MAX_NUM_BATCHED_TOKENS = 8192;

	public static final int DEFAULT_MAX_MODEL_LEN = 32_768;

	public static final long DEFAULT_LORA_LOAD_DELAY_MILLIS = 100;

	private final int maxNumSeqs;

	private final int numKvBlocks;

	private final int blockSize;

	private final int maxNumBatchedTokens;

	private final int maxModelLen;

	private final PerfProfile perfProfile;

	private final List<String> loraModules;

	private final int maxLoras;

	private final long loraLoadDelayMillis;

	private final SchedulingPolicy schedulingPolicy;

	private final PriorityConvention priorityConvention;

	private EngineConfig(Builder builder) {
		this.maxNumSeqs = positive("max-num-seqs", builder.maxNumSeqs);
		this.numKvBlocks = positive("kv-blocks", builder.numKvBlocks);
		this.blockSize = positive("block-size", builder.blockSize);
		this.maxNumBatchedTokens = positive("max-num-batched-tokens", builder.maxNumBatchedTokens);
		this.maxModelLen = positive("max-model-len", builder.maxModelLen);
		this.perfProfile = Objects.requireNonNull(builder.perfProfile, "perfProfile");
		this.loraModules = List.copyOf(new LinkedHashSet<>(builder.loraModules));
		for (String adapter : this.loraModules) {
			if (adapter.isBlank()) {
				throw new IllegalArgumentException("lora-modules has an empty adapter name");
			}
		}
		// vLLM defaults max_loras to 1 when LoRA is enabled.
		this.maxLoras = (builder.maxLoras != null) ? builder.maxLoras : (this.loraModules.isEmpty() ? 0 : 1);
		if (this.maxLoras < 0 || (!this.loraModules.isEmpty() && this.maxLoras < 1)) {
			throw new IllegalArgumentException("max-loras must be at least 1 when lora-modules are given, was "
					+ this.maxLoras);
		}
		if (builder.loraLoadDelayMillis < 0) {
			throw new IllegalArgumentException("lora-load-delay-ms must not be negative, was "
					+ builder.loraLoadDelayMillis);
		}
		this.loraLoadDelayMillis = builder.loraLoadDelayMillis;
		this.schedulingPolicy = Objects.requireNonNull(builder.schedulingPolicy, "schedulingPolicy");
		this.priorityConvention = Objects.requireNonNull(builder.priorityConvention, "priorityConvention");
	}

	private static int positive(String name, int value) {
		if (value < 1) {
			throw new IllegalArgumentException(name + " must be at least 1, was " + value);
		}
		return value;
	}

	public static Builder builder() {
		return new Builder();
	}

	public static EngineConfig defaults() {
		return builder().build();
	}

	public int maxNumSeqs() {
		return this.maxNumSeqs;
	}

	public int numKvBlocks() {
		return this.numKvBlocks;
	}

	public int blockSize() {
		return this.blockSize;
	}

	public int maxNumBatchedTokens() {
		return this.maxNumBatchedTokens;
	}

	public int maxModelLen() {
		return this.maxModelLen;
	}

	public PerfProfile perfProfile() {
		return this.perfProfile;
	}

	public List<String> loraModules() {
		return this.loraModules;
	}

	public int maxLoras() {
		return this.maxLoras;
	}

	public long loraLoadDelayMillis() {
		return this.loraLoadDelayMillis;
	}

	public SchedulingPolicy schedulingPolicy() {
		return this.schedulingPolicy;
	}

	public PriorityConvention priorityConvention() {
		return this.priorityConvention;
	}

	public static final class Builder {

		private int maxNumSeqs = DEFAULT_MAX_NUM_SEQS;

		private int numKvBlocks = DEFAULT_KV_BLOCKS;

		private int blockSize = DEFAULT_BLOCK_SIZE;

		private int maxNumBatchedTokens = DEFAULT_MAX_NUM_BATCHED_TOKENS;

		private int maxModelLen = DEFAULT_MAX_MODEL_LEN;

		private PerfProfile perfProfile = PerfProfile.LLAMA_3_1_8B_H100;

		private List<String> loraModules = List.of();

		private Integer maxLoras;

		private long loraLoadDelayMillis = DEFAULT_LORA_LOAD_DELAY_MILLIS;

		private SchedulingPolicy schedulingPolicy = SchedulingPolicy.FCFS;

		private PriorityConvention priorityConvention = PriorityConvention.VLLM;

		private Builder() {
		}

		public Builder maxNumSeqs(int maxNumSeqs) {
			this.maxNumSeqs = maxNumSeqs;
			return this;
		}

		public Builder numKvBlocks(int numKvBlocks) {
			this.numKvBlocks = numKvBlocks;
			return this;
		}

		public Builder blockSize(int blockSize) {
			this.blockSize = blockSize;
			return this;
		}

		public Builder maxNumBatchedTokens(int maxNumBatchedTokens) {
			this.maxNumBatchedTokens = maxNumBatchedTokens;
			return this;
		}

		public Builder maxModelLen(int maxModelLen) {
			this.maxModelLen = maxModelLen;
			return this;
		}

		public Builder perfProfile(PerfProfile perfProfile) {
			this.perfProfile = perfProfile;
			return this;
		}

		public Builder loraModules(List<String> loraModules) {
			this.loraModules = List.copyOf(loraModules);
			return this;
		}

		/** Adapter slots; defaults to 1 when adapters are given, as in vLLM. */
		public Builder maxLoras(int maxLoras) {
			this.maxLoras = maxLoras;
			return this;
		}

		public Builder loraLoadDelayMillis(long loraLoadDelayMillis) {
			this.loraLoadDelayMillis = loraLoadDelayMillis;
			return this;
		}

		/** First come, first served by default, as in vLLM. */
		public Builder schedulingPolicy(SchedulingPolicy schedulingPolicy) {
			this.schedulingPolicy = schedulingPolicy;
			return this;
		}

		/** What a request's priority means under the priority policy; vLLM's (lower first) by default. */
		public Builder priorityConvention(PriorityConvention priorityConvention) {
			this.priorityConvention = priorityConvention;
			return this;
		}

		public EngineConfig build() {
			return new EngineConfig(this);
		}
	}
}
