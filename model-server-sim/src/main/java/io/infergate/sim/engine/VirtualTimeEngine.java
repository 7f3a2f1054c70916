package io.infergate.sim.engine;

import java.util.List;

/**
 * A simulated engine in virtual time, for harnesses that replay workloads without sleeping. The caller drives it
 * from one thread: {@link #submit} requests at non-decreasing times, {@link #advanceTo} a time, and reads events
 * through the {@link EngineEventListener} and figures through {@link #metrics()}.
 *
 * <p>Time rules, the same as the wall-clock engine's: a step starts as soon as the engine has schedulable work and
 * no step in flight, and ends its step time later; requests submitted while a step is in flight join the next one.
 * {@code advanceTo(t)} completes every step ending at or before {@code t} and starts every step starting strictly
 * before {@code t}, so requests submitted at the same instant {@code t} share the step that starts at {@code t}.
 * An idle engine takes no steps.
 */
public final class VirtualTimeEngine {

	private final EngineCore core;

	private final double epochStartSeconds;

	private final PromptEncoder promptEncoder;

	private long nowMicros;

	private long stepEndMicros = -1;

	/** No step can start before this: the time of the last step end, or of an adapter load we wait for. */
	private long earliestStepStartMicros;

	public VirtualTimeEngine(EngineConfig config, EngineEventListener listener) {
		this(config, listener, System.currentTimeMillis() / 1000.0);
	}

	/**
	 * @param epochStartSeconds epoch seconds that virtual time 0 stands for, used for the timestamps in metrics
	 */
	public VirtualTimeEngine(EngineConfig config, EngineEventListener listener, double epochStartSeconds) {
		this(config, listener, epochStartSeconds, KvEventSink.NONE);
	}

	/**
	 * @param kvEventSink receives the engine's KV-cache events in-process, one batch per step that changed the prefix
	 * cache, at the step's end (the objects a publisher would encode); batch timestamps are epoch seconds from
	 * {@code epochStartSeconds}
	 */
	public VirtualTimeEngine(EngineConfig config, EngineEventListener listener, double epochStartSeconds,
			KvEventSink kvEventSink) {
		this(config, listener, epochStartSeconds, kvEventSink, PromptEncoder.standIn());
	}

	/**
	 * @param promptEncoder tokenizes the prompt texts given to {@link #cachedPrefixTokens(String, String)}; the
	 * stand-in by default
	 */
	public VirtualTimeEngine(EngineConfig config, EngineEventListener listener, double epochStartSeconds,
			KvEventSink kvEventSink, PromptEncoder promptEncoder) {
		this.core = new EngineCore(config, listener, kvEventSink, (micros) -> epochStartSeconds + micros / 1e6);
		this.epochStartSeconds = epochStartSeconds;
		this.promptEncoder = promptEncoder;
	}

	public EngineConfig config() {
		return this.core.config();
	}

	/** Current virtual time, µs. */
	public long nowMicros() {
		return this.nowMicros;
	}

	/**
	 * Advances to {@code atMicros} and queues the request there.
	 * @throws IllegalArgumentException if the engine would refuse it (see {@link #rejectionReason})
	 */
	public EngineRequest submit(long atMicros, EngineRequest request) {
		advanceTo(atMicros);
		this.core.submit(request, atMicros);
		if (this.stepEndMicros < 0) {
			// New work may be schedulable even if the engine was waiting for an adapter load.
			this.earliestStepStartMicros = atMicros;
		}
		return request;
	}

	/** Why {@link #submit} would refuse such a request, in vLLM's words, or null. */
	public String rejectionReason(int numPromptTokens, int maxTokens, String adapter) {
		return this.core.rejectionReason(numPromptTokens, maxTokens, adapter);
	}

	/**
	 * The same for a request with this priority: an engine that does not schedule by priority refuses any but 0
	 * under vLLM's convention.
	 */
	public String rejectionReason(int numPromptTokens, int maxTokens, String adapter, int priority) {
		return this.core.rejectionReason(numPromptTokens, maxTokens, adapter, priority);
	}

	/** Aborts a waiting or running request; a running one frees its blocks when the step in flight ends. */
	public void abort(EngineRequest request) {
		this.core.abort(request, this.nowMicros);
	}

	/** Runs the engine up to {@code targetMicros}, emitting the events of the steps completed. */
	public void advanceTo(long targetMicros) {
		if (targetMicros < this.nowMicros) {
			throw new IllegalArgumentException("virtual time runs forward: now " + this.nowMicros + " µs, asked "
					+ targetMicros + " µs");
		}
		run(targetMicros);
		this.nowMicros = targetMicros;
	}

	/** Runs until no work is left (or only work that can never start); returns the time reached. */
	public long runUntilIdle() {
		run(Long.MAX_VALUE);
		return this.nowMicros;
	}

	/**
	 * Time of the next thing this engine will do: the end of the step in flight, or the start of the next step;
	 * {@link Long#MAX_VALUE} when idle.
	 */
	public long nextEventMicros() {
		if (this.stepEndMicros >= 0) {
			return this.stepEndMicros;
		}
		return this.core.hasWork() ? Math.max(this.nowMicros, this.earliestStepStartMicros) : Long.MAX_VALUE;
	}

	private void run(long targetMicros) {
		while (true) {
			if (this.stepEndMicros >= 0) {
				if (this.stepEndMicros > targetMicros) {
					return;
				}
				this.nowMicros = this.stepEndMicros;
				this.earliestStepStartMicros = this.stepEndMicros;
				this.stepEndMicros = -1;
				this.core.finishStep(this.nowMicros);
				continue;
			}
			if (!this.core.hasWork() || this.earliestStepStartMicros == Long.MAX_VALUE) {
				return;
			}
			long startMicros = Math.max(this.nowMicros, this.earliestStepStartMicros);
			if (startMicros >= targetMicros) {
				return;
			}
			this.nowMicros = startMicros;
			long stepMicros = this.core.beginStep(startMicros);
			if (stepMicros >= 0) {
				this.stepEndMicros = startMicros + stepMicros;
			}
			else {
				// Only adapter loads can unblock an engine that has work but nothing to schedule.
				this.earliestStepStartMicros = this.core.nextTimedEventMicros(startMicros);
			}
		}
	}

	public MetricsSnapshot metrics() {
		return this.core.snapshot(micros -> this.epochStartSeconds + micros / 1e6);
	}

	/**
	 * Leading tokens of the prompt that a request for {@code adapter} (null for the base model) would take from
	 * this engine's prefix cache if admitted now. No side effects.
	 */
	public int cachedPrefixTokens(int[] promptTokens, String adapter) {
		return this.core.cachedPrefixTokens(promptTokens, adapter);
	}

	/** The same for a prompt text, tokenized by the engine's {@link PromptEncoder} as a completions prompt. */
	public int cachedPrefixTokens(String prompt, String adapter) {
		return this.core.cachedPrefixTokens(this.promptEncoder.encodePrompt(prompt), adapter);
	}

	/**
	 * Drops every cached prefix block, as vLLM's {@code /reset_prefix_cache}, publishing {@code AllBlocksCleared}.
	 * @return false, changing nothing, while a running request holds KV blocks
	 */
	public boolean resetPrefixCache() {
		return this.core.resetPrefixCache(this.nowMicros);
	}

	/** Adapters loaded or loading, in load order. */
	public List<String> loadedAdapters() {
		return this.core.loadedAdapters();
	}
}
