package io.infergate.bench.quality.workload;

/** A workload file that cannot be run; the message names the key and what is wrong with it. */
public final class WorkloadException extends RuntimeException {

	public WorkloadException(String message) {
		super(message);
	}
}
