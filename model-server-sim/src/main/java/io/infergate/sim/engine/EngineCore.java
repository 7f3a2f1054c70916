package io.infergate.sim.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongToDoubleFunction;

import io.infergate.kvevents.AllBlocksCleared;
import io.infergate.kvevents.BlockRemoved;
import io.infergate.kvevents.BlockStored;
import io.infergate.kvevents.KvCacheEvent;
import io.infergate.kvevents.KvEventBatch;

/**
 * The clock-free heart of a simulated vLLM V1 engine: a continuous-batching scheduler over a prefix-caching KV
 * cache and LoRA slots. A driver supplies time: it calls {@link #beginStep(long)} to plan a step, waits the
 * returned step time (really, or in virtual time), then calls {@link #finishStep(long)}. Not thread-safe.
 *
 * <p>One step, as vLLM V1's scheduler does it, with a token budget of {@code maxNumBatchedTokens}:
 * <ol>
 * <li>Running requests, oldest admission first, each get what they still need (one token when decoding, the rest
 * of the prompt in chunks when prefilling), within the budget. If a request needs a KV block and none is free, a
 * running request is preempted (its blocks freed, back to the waiting queue, to be recomputed) until the block fits
 * or the request preempted itself: under {@link SchedulingPolicy#FCFS} the most recently admitted one, which
 * rejoins the head of the queue; under {@link SchedulingPolicy#PRIORITY} the one with the largest (effective
 * priority, arrival), which may already have been scheduled in this step (then its tokens go back to the budget),
 * and which rejoins the queue in priority order.</li>
 * <li>If nothing was preempted, or nothing else was scheduled, waiting requests are admitted from the head of the
 * queue (arrival order, or (effective priority, arrival) order) while the budget, the {@code maxNumSeqs} limit and
 * free KV blocks allow; a head that does not fit in the free blocks stops admission. A request whose adapter is not
 * loaded is skipped (its load starts if a slot can be had) and keeps its place. A request's cached prefix, in full
 * blocks and leaving at least one token to compute, is taken from the cache. A waiting request never preempts a
 * running one, whatever its priority.</li>
 * </ol>
 * Step time is {@link PerfProfile#stepMicros(int, int)} of the uncached prefill tokens and decoding sequences in
 * the step. Each request whose computed tokens catch up with its tokens at the end of the step gets one output
 * token. Work per step is proportional to the running batch, not to all requests ever seen.
 *
 * <p>With a {@link KvEventSink}, every step that changed the prefix cache ends with one batch of vLLM's KV-cache
 * events, in the order the changes happened: a {@code BlockRemoved} per cached block that allocation evicted, and a
 * {@code BlockStored} per run of consecutive prompt blocks that entered the cache (blocks whose hash another request
 * had already cached are not stored again, so every stored hash is removed at most once).
 */
final class EngineCore {

	private final EngineConfig config;

	private final EngineEventListener listener;

	private final int blockSize;

	private final KvBlockPool kvBlocks;

	private final LoraSlots loraSlots;

	private final WaitingQueue waiting;

	private final boolean priorityScheduling;

	/** Admission order; first-come-first-served preemption takes from the end. */
	private final ArrayList<EngineRequest> running = new ArrayList<>();

	private final ArrayDeque<EngineRequest> skippedForAdapter = new ArrayDeque<>();

	private final LatencyHistogram timeToFirstToken = new LatencyHistogram(LatencyHistogram.TTFT_BOUNDS_SECONDS);

	private final LatencyHistogram e2eLatency = new LatencyHistogram(LatencyHistogram.E2E_BOUNDS_SECONDS);

	private int[] hitBlocks = new int[64];

	private final KvEventSink kvEventSink;

	private final LongToDoubleFunction epochSecondsAtMicros;

	/** The events of the step in flight, null when no sink listens. */
	private final List<KvCacheEvent> kvEvents;

	private long nextRequestId;

	private boolean stepInFlight;

	private long prefixCacheQueryTokens;

	private long prefixCacheHitTokens;

	private long promptTokens;

	private long generationTokens;

	private long numPreemptions;

	private long finishedRequests;

	EngineCore(EngineConfig config, EngineEventListener listener) {
		this(config, listener, KvEventSink.NONE, (micros) -> 0);
	}

	/**
	 * @param epochSecondsAtMicros the epoch seconds an engine time stands for, for the batches' timestamps
	 */
	EngineCore(EngineConfig config, EngineEventListener listener, KvEventSink kvEventSink,
			LongToDoubleFunction epochSecondsAtMicros) {
		this.config = config;
		this.listener = listener;
		this.blockSize = config.blockSize();
		this.kvBlocks = new KvBlockPool(config.numKvBlocks());
		this.loraSlots = new LoraSlots(config.maxLoras(), config.loraLoadDelayMillis() * 1000);
		this.waiting = WaitingQueue.create(config.schedulingPolicy());
		this.priorityScheduling = config.schedulingPolicy() == SchedulingPolicy.PRIORITY;
		this.kvEventSink = kvEventSink;
		this.epochSecondsAtMicros = epochSecondsAtMicros;
		if (kvEventSink != KvEventSink.NONE) {
			this.kvEvents = new ArrayList<>();
			this.kvBlocks.evictionListener((hash) -> this.kvEvents
				.add(new BlockRemoved(new long[] { hash }, BlockStored.MEDIUM_GPU, null)));
		}
		else {
			this.kvEvents = null;
		}
	}

	EngineConfig config() {
		return this.config;
	}

	/**
	 * Why this engine would refuse the request, in vLLM's words, or null if it is acceptable.
	 */
	String rejectionReason(int numPromptTokens, int maxTokens, String adapter) {
		return rejectionReason(numPromptTokens, maxTokens, adapter, 0);
	}

	/**
	 * Why this engine would refuse the request with this priority, in vLLM's words, or null if it is acceptable. As
	 * vLLM, an engine that does not schedule by priority refuses any priority but 0; under SGLang's convention it is
	 * accepted and ignored, as SGLang does by default (without {@code --abort-on-priority-when-disabled}).
	 */
	String rejectionReason(int numPromptTokens, int maxTokens, String adapter, int priority) {
		if (adapter != null && !this.config.loraModules().contains(adapter)) {
			return "The model `" + adapter + "` does not exist.";
		}
		if (maxTokens < 1) {
			return "max_tokens must be at least 1, got " + maxTokens + ".";
		}
		if (numPromptTokens < 1) {
			return "The prompt is empty.";
		}
		int maxModelLen = this.config.maxModelLen();
		if (numPromptTokens > maxModelLen) {
			return "This model's maximum context length is " + maxModelLen + " tokens. However, your request has "
					+ numPromptTokens + " input tokens. Please reduce the length of the input messages.";
		}
		long requested = (long) numPromptTokens + maxTokens;
		if (requested > maxModelLen) {
			return "'max_tokens' or 'max_completion_tokens' is too large: " + maxTokens + ". This model's maximum "
					+ "context length is " + maxModelLen + " tokens and your request has " + numPromptTokens
					+ " input tokens (" + maxTokens + " > " + maxModelLen + " - " + numPromptTokens + ").";
		}
		long blocksNeeded = (requested + this.blockSize - 1) / this.blockSize;
		if (blocksNeeded > this.kvBlocks.numBlocks()) {
			return "The request needs " + blocksNeeded + " KV-cache blocks but the engine has only "
					+ this.kvBlocks.numBlocks() + ".";
		}
		if (priority != 0 && !this.priorityScheduling
				&& this.config.priorityConvention() == PriorityConvention.VLLM) {
			return "Got priority " + priority + " but Priority scheduling is not enabled.";
		}
		return null;
	}

	/** Queues a request (at the tail, or in priority order); it joins the next step planned. */
	void submit(EngineRequest request, long nowMicros) {
		if (request.state != EngineRequest.State.NEW) {
			throw new IllegalStateException("request already submitted: " + request);
		}
		String reason = rejectionReason(request.numPromptTokens(), request.maxTokens(), request.adapter(),
				request.priority());
		if (reason != null) {
			throw new IllegalArgumentException(reason);
		}
		request.id = this.nextRequestId++;
		request.arrivalMicros = nowMicros;
		request.effectivePriority = this.config.priorityConvention().effectivePriority(request.priority());
		request.promptBlockHashes = PrefixBlockHasher.hashFullBlocks(request.promptTokens(), this.blockSize,
				request.adapter(), request.cacheSalt());
		request.state = EngineRequest.State.WAITING;
		this.waiting.add(request);
		if (request.adapter() != null) {
			this.loraSlots.waitingAdded(request.adapter(), nowMicros);
		}
	}

	boolean hasWork() {
		return !this.running.isEmpty() || !this.waiting.isEmpty();
	}

	boolean isStepInFlight() {
		return this.stepInFlight;
	}

	/** Earliest engine time after {@code nowMicros} at which an adapter load completes, or MAX_VALUE. */
	long nextTimedEventMicros(long nowMicros) {
		return this.waiting.isEmpty() ? Long.MAX_VALUE : this.loraSlots.nextReadyMicros(nowMicros);
	}

	/**
	 * Plans a step starting at {@code nowMicros}.
	 * @return the step's duration in µs, or -1 if nothing could be scheduled (then no step is in flight)
	 */
	long beginStep(long nowMicros) {
		if (this.stepInFlight) {
			throw new IllegalStateException("a step is already in flight");
		}
		int tokenBudget = this.config.maxNumBatchedTokens();
		int prefillTokens = 0;
		int decodeSeqs = 0;
		int scheduled = 0;
		boolean preempted = false;
		for (int i = 0; i < this.running.size() && tokenBudget > 0; i++) {
			EngineRequest request = this.running.get(i);
			int numNewTokens = Math.min(request.numTokens() - request.numComputedTokens, tokenBudget);
			boolean fits = true;
			while (!allocateSlots(request, numNewTokens)) {
				EngineRequest victim;
				if (this.priorityScheduling) {
					int victimIndex = lowestPriorityRunning();
					victim = this.running.remove(victimIndex);
					if (victimIndex < i) {
						// Scheduled earlier in this step: its tokens go back to the budget.
						tokenBudget += victim.scheduledTokens;
						if (victim.decodingInStep) {
							decodeSeqs--;
						}
						else {
							prefillTokens -= victim.scheduledTokens;
						}
						scheduled--;
						i--;
					}
				}
				else {
					victim = this.running.remove(this.running.size() - 1);
				}
				preempt(victim, nowMicros);
				preempted = true;
				if (victim == request) {
					fits = false;
					break;
				}
			}
			if (!fits) {
				break;
			}
			boolean decoding = request.numOutputTokens > 0 && request.numComputedTokens == request.numTokens() - 1;
			request.scheduledTokens = numNewTokens;
			request.decodingInStep = decoding;
			if (decoding) {
				decodeSeqs++;
			}
			else {
				prefillTokens += numNewTokens;
			}
			tokenBudget -= numNewTokens;
			scheduled++;
		}
		// After a preemption vLLM admits nothing new in the same step, unless the step would otherwise be empty.
		if (!preempted || scheduled == 0) {
			while (tokenBudget > 0 && this.running.size() < this.config.maxNumSeqs() && !this.waiting.isEmpty()) {
				EngineRequest request = this.waiting.peek();
				if (request.adapter() != null && !this.loraSlots.ensureReady(request.adapter(), nowMicros)) {
					this.skippedForAdapter.addLast(this.waiting.poll());
					continue;
				}
				int cachedBlocks = findCachedBlocks(request);
				int cachedTokens = cachedBlocks * this.blockSize;
				int numNewTokens = Math.min(request.numTokens() - cachedTokens, tokenBudget);
				if (!allocateForAdmission(request, cachedBlocks, numNewTokens)) {
					break;
				}
				this.waiting.poll();
				admit(request, cachedTokens, numNewTokens, nowMicros);
				prefillTokens += numNewTokens;
				tokenBudget -= numNewTokens;
				scheduled++;
			}
			this.waiting.prependAll(this.skippedForAdapter);
		}
		if (scheduled == 0) {
			publishKvEvents(nowMicros);
			return -1;
		}
		this.stepInFlight = true;
		return this.config.perfProfile().stepMicros(prefillTokens, decodeSeqs);
	}

	/**
	 * Index in {@link #running} of the request with the largest (effective priority, arrival), vLLM's priority
	 * preemption victim. vLLM's arrival times are wall-clock floats that practically never tie; engine times can, so
	 * the later submission is taken, as the total order of {@link WaitingQueue#PRIORITY_ORDER} does.
	 */
	private int lowestPriorityRunning() {
		int victim = 0;
		for (int i = 1; i < this.running.size(); i++) {
			if (WaitingQueue.PRIORITY_ORDER.compare(this.running.get(i), this.running.get(victim)) > 0) {
				victim = i;
			}
		}
		return victim;
	}

	private void admit(EngineRequest request, int cachedTokens, int numNewTokens, long nowMicros) {
		request.state = EngineRequest.State.RUNNING;
		request.numComputedTokens = cachedTokens;
		request.numHashedBlocks = cachedTokens / this.blockSize;
		request.scheduledTokens = numNewTokens;
		request.decodingInStep = false;
		this.running.add(request);
		this.prefixCacheQueryTokens += request.numTokens();
		this.prefixCacheHitTokens += cachedTokens;
		if (request.firstAdmissionCachedTokens < 0) {
			request.firstAdmissionCachedTokens = cachedTokens;
			this.promptTokens += request.numPromptTokens();
		}
		if (request.adapter() != null) {
			this.loraSlots.waitingRemoved(request.adapter(), nowMicros);
			this.loraSlots.runningAdded(request.adapter(), nowMicros);
		}
	}

	/** Completes the step in flight at {@code endMicros}: computed tokens advance, outputs are sampled. */
	void finishStep(long endMicros) {
		if (!this.stepInFlight) {
			throw new IllegalStateException("no step in flight");
		}
		this.stepInFlight = false;
		boolean anyLeft = false;
		for (int i = 0; i < this.running.size(); i++) {
			EngineRequest request = this.running.get(i);
			if (request.scheduledTokens > 0) {
				request.numComputedTokens += request.scheduledTokens;
				request.scheduledTokens = 0;
				registerFullPromptBlocks(request);
				if (!request.abortRequested && request.numComputedTokens == request.numTokens()) {
					sampleToken(request, endMicros);
				}
			}
			if (request.abortRequested) {
				release(request, EngineRequest.State.ABORTED, endMicros);
			}
			anyLeft |= request.state != EngineRequest.State.RUNNING;
		}
		if (anyLeft) {
			this.running.removeIf(EngineCore::isNotRunning);
		}
		publishKvEvents(endMicros);
	}

	private void publishKvEvents(long nowMicros) {
		if (this.kvEvents != null && !this.kvEvents.isEmpty()) {
			this.kvEventSink.publish(new KvEventBatch(this.epochSecondsAtMicros.applyAsDouble(nowMicros),
					this.kvEvents, 0));
			this.kvEvents.clear();
		}
	}

	/**
	 * Drops every cached block, as vLLM's {@code reset_prefix_cache}, and publishes {@code AllBlocksCleared}.
	 * @return false, changing nothing, while a running request holds blocks
	 */
	boolean resetPrefixCache(long nowMicros) {
		if (!this.kvBlocks.clearCache()) {
			return false;
		}
		if (this.kvEvents != null) {
			this.kvEvents.add(AllBlocksCleared.INSTANCE);
			if (!this.stepInFlight) {
				publishKvEvents(nowMicros);
			}
		}
		return true;
	}

	private static boolean isNotRunning(EngineRequest request) {
		return request.state != EngineRequest.State.RUNNING;
	}

	private void sampleToken(EngineRequest request, long nowMicros) {
		request.numOutputTokens++;
		this.generationTokens++;
		if (request.firstTokenMicros < 0) {
			request.firstTokenMicros = nowMicros;
			this.timeToFirstToken.observeMicros(nowMicros - request.arrivalMicros);
			this.listener.onFirstToken(request, nowMicros);
		}
		this.listener.onToken(request, nowMicros);
		if (request.numOutputTokens >= request.maxTokens()) {
			request.finishMicros = nowMicros;
			release(request, EngineRequest.State.FINISHED, nowMicros);
			this.e2eLatency.observeMicros(nowMicros - request.arrivalMicros);
			this.finishedRequests++;
			this.listener.onFinished(request, nowMicros);
		}
	}

	/** Aborts a request: a waiting one leaves the queue, a running one frees its blocks (after the step in flight). */
	void abort(EngineRequest request, long nowMicros) {
		if (request.state == EngineRequest.State.WAITING) {
			this.waiting.remove(request);
			request.state = EngineRequest.State.ABORTED;
			if (request.adapter() != null) {
				this.loraSlots.waitingRemoved(request.adapter(), nowMicros);
			}
		}
		else if (request.state == EngineRequest.State.RUNNING) {
			if (this.stepInFlight) {
				request.abortRequested = true;
			}
			else {
				release(request, EngineRequest.State.ABORTED, nowMicros);
				this.running.remove(request);
			}
		}
	}

	/** Frees a running request's blocks, last block first, so that leaves are evicted before their prefix. */
	private void release(EngineRequest request, EngineRequest.State finalState, long nowMicros) {
		freeBlocks(request);
		request.state = finalState;
		if (request.adapter() != null) {
			this.loraSlots.runningRemoved(request.adapter(), nowMicros);
		}
	}

	private void freeBlocks(EngineRequest request) {
		for (int i = request.numBlocks - 1; i >= 0; i--) {
			this.kvBlocks.release(request.blockIds[i]);
		}
		request.numBlocks = 0;
	}

	private void preempt(EngineRequest request, long nowMicros) {
		freeBlocks(request);
		request.numComputedTokens = 0;
		request.numHashedBlocks = 0;
		request.scheduledTokens = 0;
		request.state = EngineRequest.State.WAITING;
		request.numPreemptions++;
		this.numPreemptions++;
		this.waiting.prepend(request);
		if (request.adapter() != null) {
			this.loraSlots.runningRemoved(request.adapter(), nowMicros);
			this.loraSlots.waitingAdded(request.adapter(), nowMicros);
		}
		this.listener.onPreempted(request, nowMicros);
	}

	/** Blocks a running request needs for {@code numNewTokens} more tokens, taken from the free queue. */
	private boolean allocateSlots(EngineRequest request, int numNewTokens) {
		int needed = blocksFor(request.numComputedTokens + numNewTokens) - request.numBlocks;
		if (needed > this.kvBlocks.numFreeBlocks()) {
			return false;
		}
		for (int i = 0; i < needed; i++) {
			request.addBlock(this.kvBlocks.allocate());
		}
		return true;
	}

	/**
	 * Takes references on the cached prefix blocks found by {@link #findCachedBlocks} and allocates the rest. Cached
	 * blocks that sit in the free queue count against the free blocks, as vLLM checks.
	 */
	private boolean allocateForAdmission(EngineRequest request, int cachedBlocks, int numNewTokens) {
		int needed = blocksFor(cachedBlocks * this.blockSize + numNewTokens) - cachedBlocks;
		int freeHits = 0;
		for (int i = 0; i < cachedBlocks; i++) {
			if (this.kvBlocks.isFree(this.hitBlocks[i])) {
				freeHits++;
			}
		}
		if (needed > this.kvBlocks.numFreeBlocks() - freeHits) {
			return false;
		}
		for (int i = 0; i < cachedBlocks; i++) {
			this.kvBlocks.touch(this.hitBlocks[i]);
			request.addBlock(this.hitBlocks[i]);
		}
		for (int i = 0; i < needed; i++) {
			request.addBlock(this.kvBlocks.allocate());
		}
		return true;
	}

	/**
	 * Leading prompt blocks found in the prefix cache, stopping at the first miss and leaving at least one token to
	 * compute; their ids are left in {@link #hitBlocks}.
	 */
	private int findCachedBlocks(EngineRequest request) {
		long[] hashes = request.promptBlockHashes;
		int maxBlocks = Math.min(hashes.length, (request.numTokens() - 1) / this.blockSize);
		if (this.hitBlocks.length < maxBlocks) {
			this.hitBlocks = Arrays.copyOf(this.hitBlocks, Math.max(maxBlocks, this.hitBlocks.length * 2));
		}
		int found = 0;
		while (found < maxBlocks) {
			int block = this.kvBlocks.cachedBlock(hashes[found]);
			if (block < 0) {
				break;
			}
			this.hitBlocks[found++] = block;
		}
		return found;
	}

	private void registerFullPromptBlocks(EngineRequest request) {
		int fullBlocks = Math.min(request.numComputedTokens / this.blockSize, request.promptBlockHashes.length);
		int storedFrom = -1;
		for (int i = request.numHashedBlocks; i < fullBlocks; i++) {
			boolean stored = this.kvBlocks.cache(request.blockIds[i], request.promptBlockHashes[i]);
			if (this.kvEvents != null) {
				if (stored && storedFrom < 0) {
					storedFrom = i;
				}
				else if (!stored && storedFrom >= 0) {
					addBlockStored(request, storedFrom, i);
					storedFrom = -1;
				}
			}
		}
		if (storedFrom >= 0) {
			addBlockStored(request, storedFrom, fullBlocks);
		}
		request.numHashedBlocks = Math.max(request.numHashedBlocks, fullBlocks);
	}

	/**
	 * A {@code BlockStored} for prompt blocks {@code [from, to)} of the request, with vLLM's {@code extra_keys} when
	 * any block has one: the adapter's name on every block, then the {@code cache_salt} on the prompt's first.
	 */
	private void addBlockStored(EngineRequest request, int from, int to) {
		long[] hashes = Arrays.copyOfRange(request.promptBlockHashes, from, to);
		Long parent = (from > 0) ? request.promptBlockHashes[from - 1] : null;
		int[] tokens = Arrays.copyOfRange(request.promptTokens(), from * this.blockSize, to * this.blockSize);
		String adapter = request.adapter();
		String salt = request.cacheSalt();
		Integer loraId = (adapter != null) ? this.config.loraModules().indexOf(adapter) + 1 : null;
		List<List<Object>> extraKeys = null;
		if (adapter != null || (salt != null && from == 0)) {
			extraKeys = new ArrayList<>(to - from);
			for (int block = from; block < to; block++) {
				List<Object> keys = new ArrayList<>(2);
				if (adapter != null) {
					keys.add(adapter);
				}
				if (salt != null && block == 0) {
					keys.add(salt);
				}
				extraKeys.add(keys.isEmpty() ? null : keys);
			}
		}
		this.kvEvents.add(new BlockStored(hashes, parent, tokens, this.blockSize, loraId, BlockStored.MEDIUM_GPU,
				adapter, null, extraKeys));
	}

	private int blocksFor(int tokens) {
		return (tokens + this.blockSize - 1) / this.blockSize;
	}

	/**
	 * Leading tokens of {@code promptTokens} that a request for {@code adapter} would take from the prefix cache if
	 * admitted now: whole cached blocks, leaving at least one token to compute. Changes nothing.
	 */
	int cachedPrefixTokens(int[] promptTokens, String adapter) {
		long[] hashes = PrefixBlockHasher.hashFullBlocks(promptTokens, this.blockSize, adapter);
		int maxBlocks = Math.min(hashes.length, (promptTokens.length - 1) / this.blockSize);
		int found = 0;
		while (found < maxBlocks && this.kvBlocks.cachedBlock(hashes[found]) >= 0) {
			found++;
		}
		return found * this.blockSize;
	}

	/** Adapters currently loaded or loading, for tests and diagnostics. */
	List<String> loadedAdapters() {
		return this.loraSlots.loadedAdapters();
	}

	MetricsSnapshot snapshot(LongToDoubleFunction epochSecondsAtMicros) {
		return new MetricsSnapshot(this.running.size(), this.waiting.size(),
				(double) this.kvBlocks.numUsedBlocks() / this.kvBlocks.numBlocks(), this.kvBlocks.numBlocks(),
				this.blockSize, this.config.maxNumSeqs(), this.config.maxLoras(), this.loraSlots.runningAdapters(),
				this.loraSlots.waitingAdapters(), epochSecondsAtMicros.applyAsDouble(this.loraSlots.changedAtMicros()),
				this.prefixCacheQueryTokens, this.prefixCacheHitTokens, this.promptTokens, this.generationTokens,
				this.numPreemptions, this.finishedRequests, this.timeToFirstToken.snapshot(),
				this.e2eLatency.snapshot(), epochSecondsAtMicros.applyAsDouble(0));
	}
}
