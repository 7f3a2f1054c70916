package io.infergate.gateway.observe;

import org.springframework.core.io.buffer.DataBuffer;

/**
 * What the gateway saw of one inference response as it relayed it: when the request arrived, when the first byte
 * of the response body went out (the first event of a stream), and whether the upstream failed mid-stream. Filled
 * by the response as it is written, and read once the exchange has ended. The tokens come from the usage reading
 * of the account-usage step (both are kept in the request's {@code InferenceContext}).
 */
public final class RelayedResponse {

	private final long receivedNanos;

	private long firstByteNanos;

	private boolean failedMidStream;

	private boolean finished;

	public RelayedResponse(long receivedNanos) {
		this.receivedNanos = receivedNanos;
	}

	/** A buffer of the response body on its way to the client. */
	public void onBody(DataBuffer buffer) {
		if (firstByteNanos == 0 && buffer.readableByteCount() > 0) {
			firstByteNanos = System.nanoTime();
		}
	}

	/** The upstream failed after the body started; the client got a final error event instead of the rest. */
	public void onFailedMidStream() {
		failedMidStream = true;
	}

	/** Marks the exchange ended; true only the first time, so it is recorded once however it ended. */
	public synchronized boolean finish() {
		if (finished) {
			return false;
		}
		finished = true;
		return true;
	}

	public long receivedNanos() {
		return receivedNanos;
	}

	/** When the first body byte went out, or 0 when none did. */
	public long firstByteNanos() {
		return firstByteNanos;
	}

	public boolean failedMidStream() {
		return failedMidStream;
	}
}
