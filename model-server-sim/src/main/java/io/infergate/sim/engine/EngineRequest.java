package io.infergate.sim.engine;

import java.util.Arrays;

/**
 * One generation request inside a simulated engine: its prompt tokens, optional LoRA adapter, output length and
 * priority, and the progress the scheduler has made on it. The engine generates exactly {@link #maxTokens()} tokens
 * (as with {@code ignore_eos}), so load is predictable.
 *
 * <p>Read-only to callers; the engine mutates it under its own lock (wall clock) or on the driving thread
 * (virtual time). {@link #attachment()} carries the caller's own object, e.g. a response stream.
 */
public final class EngineRequest {

	enum State {
		NEW, WAITING, RUNNING, FINISHED, ABORTED
	}

	private final int[] promptTokens;

	private final String adapter;

	private final int maxTokens;

	private final int priority;

	private final Object attachment;

	private final String cacheSalt;

	long id = -1;

	State state = State.NEW;

	long arrivalMicros;

	/** The priority the scheduler orders by, lowest first (see {@link PriorityConvention}); set on submission. */
	long effectivePriority;

	/** Hashes of the prompt's full blocks, each chained from its parent's; computed at submission. */
	long[] promptBlockHashes;

	/** Tokens whose KV entries are computed (or taken from the prefix cache). */
	int numComputedTokens;

	int numOutputTokens;

	/** KV blocks held, in token order. */
	int[] blockIds = new int[0];

	int numBlocks;

	/** Full prompt blocks already registered in the prefix cache. */
	int numHashedBlocks;

	/** Tokens scheduled in the step in flight, 0 if none. */
	int scheduledTokens;

	boolean decodingInStep;

	boolean abortRequested;

	int firstAdmissionCachedTokens = -1;

	int numPreemptions;

	long firstTokenMicros = -1;

	long finishMicros = -1;

	/**
	 * @param priority the request's {@code priority} as the client sent it (0 when it sent none); it only orders
	 * requests under {@link SchedulingPolicy#PRIORITY}, and vLLM's first-come-first-served engine refuses any but 0
	 */
	public EngineRequest(int[] promptTokens, String adapter, int maxTokens, int priority, Object attachment) {
		this(promptTokens, adapter, maxTokens, priority, null, attachment);
	}

	/**
	 * @param cacheSalt the request's {@code cache_salt}, or null: as in vLLM, it enters the hash of the prompt's
	 * first block, so the request shares cached blocks only with requests carrying the same salt
	 */
	public EngineRequest(int[] promptTokens, String adapter, int maxTokens, int priority, String cacheSalt,
			Object attachment) {
		this.promptTokens = promptTokens;
		this.adapter = adapter;
		this.maxTokens = maxTokens;
		this.priority = priority;
		this.cacheSalt = cacheSalt;
		this.attachment = attachment;
	}

	public EngineRequest(int[] promptTokens, String adapter, int maxTokens, Object attachment) {
		this(promptTokens, adapter, maxTokens, 0, attachment);
	}

	public EngineRequest(int[] promptTokens, String adapter, int maxTokens) {
		this(promptTokens, adapter, maxTokens, 0, null);
	}

	/** The request's {@code cache_salt}, or null. */
	public String cacheSalt() {
		return this.cacheSalt;
	}

	/** Engine-local sequence number, assigned on submission. */
	public long id() {
		return this.id;
	}

	public int numPromptTokens() {
		return this.promptTokens.length;
	}

	int[] promptTokens() {
		return this.promptTokens;
	}

	/** LoRA adapter name, or null for the base model. */
	public String adapter() {
		return this.adapter;
	}

	public int maxTokens() {
		return this.maxTokens;
	}

	/** The priority the client asked for, 0 by default; what it means depends on {@link PriorityConvention}. */
	public int priority() {
		return this.priority;
	}

	public Object attachment() {
		return this.attachment;
	}

	public int numOutputTokens() {
		return this.numOutputTokens;
	}

	/** Prompt tokens served from the prefix cache when first admitted; -1 before admission. */
	public int cachedPromptTokens() {
		return this.firstAdmissionCachedTokens;
	}

	public int numPreemptions() {
		return this.numPreemptions;
	}

	public long arrivalMicros() {
		return this.arrivalMicros;
	}

	/** Engine time of the first output token, -1 before it. */
	public long firstTokenMicros() {
		return this.firstTokenMicros;
	}

	/** Engine time of the last output token, -1 before it. */
	public long finishMicros() {
		return this.finishMicros;
	}

	public boolean isFinished() {
		return this.state == State.FINISHED;
	}

	public boolean isAborted() {
		return this.state == State.ABORTED;
	}

	/** Prompt plus generated tokens: what a recompute after preemption must prefill. */
	int numTokens() {
		return this.promptTokens.length + this.numOutputTokens;
	}

	void addBlock(int blockId) {
		if (this.numBlocks == this.blockIds.length) {
			this.blockIds = Arrays.copyOf(this.blockIds, Math.max(8, this.blockIds.length * 2));
		}
		this.blockIds[this.numBlocks++] = blockId;
	}

	@Override
	public String toString() {
		return "EngineRequest{id=" + this.id + ", prompt=" + this.promptTokens.length + ", output="
				+ this.numOutputTokens + "/" + this.maxTokens + ", adapter=" + this.adapter + ", priority="
				+ this.priority + ", state=" + this.state + "}";
	}
}
