package io.infergate.bench.quality.replay;

/**
 * What happened to one request of a replay. Times are virtual µs from the start of the run; -1 where it never
 * happened.
 */
public final class RequestRecord {

	/** Order of arrival, from 0; requests below the workload's warm-up count are not measured. */
	final long index;

	final long arrivalMicros;

	/** The tenant that sent it, or null when the workload names no tenants. */
	String tenant;

	/** The pod it was sent to, or -1 when it failed before reaching one. */
	int pod = -1;

	/**
	 * For a turn of a session after its first, whether it went to the pod of the session's previous turn (whichever
	 * gateway replica routed either); null for a request without a session or a session's first turn.
	 */
	Boolean sameSessionPod;

	/** When flow control let it go to routing: its arrival, unless it waited at the gateway. */
	long dispatchMicros = -1;

	long firstTokenMicros = -1;

	long finishMicros = -1;

	int outputTokens;

	/** Prompt tokens the engine computed, and of those the ones it found in its prefix cache; set on completion. */
	int promptTokens;

	int cachedPromptTokens;

	/** Times the engine preempted it for lack of KV blocks; set on completion. */
	int preemptions;

	long schedulerNanos;

	boolean failed;

	/** Answered 429 by flow control: shed, its queue full, or its wait expired. */
	boolean rejected;

	RequestRecord(long index, long arrivalMicros) {
		this.index = index;
		this.arrivalMicros = arrivalMicros;
	}

	/** A request that a driver outside the replay saw served; times in µs of model time from the start of the run. */
	public static RequestRecord completed(long index, long arrivalMicros, int pod, long firstTokenMicros,
			long finishMicros, int outputTokens) {
		RequestRecord record = new RequestRecord(index, arrivalMicros);
		record.pod = pod;
		record.firstTokenMicros = firstTokenMicros;
		record.finishMicros = finishMicros;
		record.outputTokens = outputTokens;
		return record;
	}

	/** A request that a driver outside the replay saw fail. */
	public static RequestRecord failed(long index, long arrivalMicros) {
		RequestRecord record = new RequestRecord(index, arrivalMicros);
		record.failed = true;
		return record;
	}

	public long index() {
		return index;
	}

	public long arrivalMicros() {
		return arrivalMicros;
	}

	/** See {@link #sameSessionPod}. */
	public Boolean sameSessionPod() {
		return sameSessionPod;
	}

	public int pod() {
		return pod;
	}

	public long dispatchMicros() {
		return dispatchMicros;
	}

	public long firstTokenMicros() {
		return firstTokenMicros;
	}

	public long finishMicros() {
		return finishMicros;
	}

	public int outputTokens() {
		return outputTokens;
	}

	/** Wall-clock time the router took to choose the pod, ns. */
	public long schedulerNanos() {
		return schedulerNanos;
	}

	public boolean failed() {
		return failed;
	}

	public boolean rejected() {
		return rejected;
	}

	public String tenant() {
		return tenant;
	}

	public int promptTokens() {
		return promptTokens;
	}

	public int cachedPromptTokens() {
		return cachedPromptTokens;
	}

	public int preemptions() {
		return preemptions;
	}

	public boolean completed() {
		return finishMicros >= 0;
	}
}
