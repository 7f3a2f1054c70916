package io.infergate.kvevents;

/**
 * The ZeroMQ frame layout of vLLM's event stream. A published message is three frames: the topic (UTF-8, empty by
 * default), the batch's sequence number as 8 bytes big-endian (from 0, one per batch), and the msgpack payload. The
 * replay socket (ROUTER) takes {@code [identity, empty, first sequence number wanted]} and answers
 * {@code [identity, empty, sequence, payload]} for every buffered batch from that number on, then
 * {@code [identity, empty, -1, empty]}.
 */
public final class KvEventFrames {

	/** The sequence number that ends a replay. */
	public static final long END_OF_REPLAY = -1;

	/** vLLM's default publisher port ({@code tcp://*:5557}); data-parallel rank r publishes on port + r. */
	public static final int DEFAULT_PORT = 5557;

	/** Batches vLLM's publisher keeps for replay by default. */
	public static final int DEFAULT_REPLAY_BUFFER = 10_000;

	private KvEventFrames() {
	}

	/** {@code sequence} as 8 bytes, big-endian, two's complement (so −1 is eight 0xff bytes). */
	public static byte[] sequenceBytes(long sequence) {
		byte[] bytes = new byte[8];
		for (int i = 7; i >= 0; i--) {
			bytes[i] = (byte) sequence;
			sequence >>>= 8;
		}
		return bytes;
	}

	/**
	 * Reads an 8-byte big-endian sequence number.
	 * @throws KvEventFormatException if the frame is not 8 bytes long
	 */
	public static long sequence(byte[] frame) {
		if (frame == null || frame.length != 8) {
			throw new KvEventFormatException("a sequence frame has 8 bytes, got "
					+ ((frame != null) ? frame.length : 0));
		}
		long sequence = 0;
		for (byte b : frame) {
			sequence = (sequence << 8) | (b & 0xff);
		}
		return sequence;
	}
}
