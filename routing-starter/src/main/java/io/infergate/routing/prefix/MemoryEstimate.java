package io.infergate.routing.prefix;

/**
 * Heap sizes as a 64-bit JVM with compressed references lays them out (12-byte header, 8-byte alignment). An
 * estimate: the index reports it without a measuring agent.
 */
final class MemoryEstimate {

	private static final int HEADER_BYTES = 12;

	private static final int ARRAY_HEADER_BYTES = 16;

	private MemoryEstimate() {
	}

	/** An object with {@code fields} fields of up to 8 bytes each. */
	static long objectBytes(int fields) {
		return align(HEADER_BYTES + 8L * fields);
	}

	static long arrayBytes(int length, int elementBytes) {
		return align(ARRAY_HEADER_BYTES + (long) length * elementBytes);
	}

	private static long align(long bytes) {
		return (bytes + 7) & ~7L;
	}
}
