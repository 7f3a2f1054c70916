package io.infergate.bench.quality.replay;

/**
 * What happened to one request of a replay. Times are virtual µs from the start of the run; -1 where it never
 * happened.
 */
public final class RequestRecord {

	/** Order of arrival, from 0; requests below the workload's warm-up count are not measured. */
	final long index;

	final long arrivalMicros;

	/** The pod it was sent to, or -1 when it failed before reaching one. */
	int pod = -1;

	long firstTokenMicros = -1;

	long finishMicros = -1;

	int outputTokens;

	long schedulerNanos;

	boolean failed;

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

	public int pod() {
		return pod;
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

	public boolean completed() {
		return finishMicros >= 0;
	}
}
