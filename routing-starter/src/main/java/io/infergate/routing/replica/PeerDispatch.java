package io.infergate.routing.replica;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.prefix.PrefixHashes;

/**
 * One dispatch as a gateway replica tells the others: which replica sent which prompt blocks to which endpoint of
 * which pool. The hashes are the {@link io.infergate.routing.prefix.PrefixHasher}'s chained block hashes, already
 * seeded with the target model and adapter, so a receiver records them as they are.
 * <p>
 * Wire format, big-endian, version 1:
 * <pre>
 * byte    1
 * long    replica id
 * short   pool length, then the pool name in UTF-8
 * short   host length, then the endpoint's host in UTF-8
 * short   port (unsigned)
 * short   block count n (unsigned), then n longs: the block hashes
 * </pre>
 * 17 bytes plus the two names and 8 bytes per block: about 2 KB for a prompt of 256 blocks (16,384 characters).
 *
 * @param replica the sender's id, random per gateway start
 * @param pool the pool the request was routed in
 * @param endpoint where it went
 * @param hashes its block hashes, at least one
 */
public record PeerDispatch(long replica, String pool, EndpointId endpoint, PrefixHashes hashes) {

	static final byte VERSION = 1;

	private static final int MAX_SHORT = 0xFFFF;

	public PeerDispatch {
		Objects.requireNonNull(pool, "pool");
		Objects.requireNonNull(endpoint, "endpoint");
		if (hashes.blockCount() == 0 || hashes.blockCount() > MAX_SHORT) {
			throw new IllegalArgumentException("a peer dispatch carries 1.." + MAX_SHORT + " blocks, got "
					+ hashes.blockCount());
		}
	}

	public byte[] encode() {
		int blocks = hashes.blockCount();
		ByteBuffer buffer = header(VERSION, replica, pool, endpoint, 2 + 8 * blocks);
		buffer.putShort((short) blocks);
		for (int i = 0; i < blocks; i++) {
			buffer.putLong(hashes.hash(i));
		}
		return buffer.array();
	}

	/**
	 * Reads what {@link #encode()} wrote.
	 * @throws IllegalArgumentException when the bytes are not a version-1 peer dispatch
	 */
	public static PeerDispatch decode(byte[] message) {
		ByteBuffer buffer = ByteBuffer.wrap(message);
		try {
			byte version = buffer.get();
			if (version != VERSION) {
				throw new IllegalArgumentException("unknown peer dispatch version " + version);
			}
			long replica = buffer.getLong();
			String pool = string(buffer);
			EndpointId endpoint = endpoint(buffer);
			int blocks = Short.toUnsignedInt(buffer.getShort());
			if (buffer.remaining() != 8 * blocks) {
				throw new IllegalArgumentException("expected " + blocks + " block hashes, found "
						+ buffer.remaining() + " bytes");
			}
			long[] hashes = new long[blocks];
			for (int i = 0; i < blocks; i++) {
				hashes[i] = buffer.getLong();
			}
			return new PeerDispatch(replica, pool, endpoint, PrefixHashes.of(hashes));
		}
		catch (BufferUnderflowException ex) {
			throw new IllegalArgumentException("truncated peer dispatch of " + message.length + " bytes", ex);
		}
	}

	/**
	 * The start every peer message shares, written into a buffer with room for {@code bodyBytes} more: its first byte
	 * (a dispatch's version, a session's type), the sender, the pool and the endpoint.
	 */
	static ByteBuffer header(byte first, long replica, String pool, EndpointId endpoint, int bodyBytes) {
		byte[] poolBytes = pool.getBytes(StandardCharsets.UTF_8);
		byte[] hostBytes = endpoint.host().getBytes(StandardCharsets.UTF_8);
		if (poolBytes.length > MAX_SHORT || hostBytes.length > MAX_SHORT) {
			throw new IllegalArgumentException("pool or host name too long to share: " + pool + ", " + endpoint);
		}
		return ByteBuffer.allocate(1 + 8 + 2 + poolBytes.length + 2 + hostBytes.length + 2 + bodyBytes)
			.put(first)
			.putLong(replica)
			.putShort((short) poolBytes.length)
			.put(poolBytes)
			.putShort((short) hostBytes.length)
			.put(hostBytes)
			.putShort((short) endpoint.port());
	}

	/** The endpoint {@link #header} wrote, read after the pool. */
	static EndpointId endpoint(ByteBuffer buffer) {
		String host = string(buffer);
		return new EndpointId(host, Short.toUnsignedInt(buffer.getShort()));
	}

	static String string(ByteBuffer buffer) {
		int length = Short.toUnsignedInt(buffer.getShort());
		if (length > buffer.remaining()) {
			throw new BufferUnderflowException();
		}
		String value = new String(buffer.array(), buffer.position(), length, StandardCharsets.UTF_8);
		buffer.position(buffer.position() + length);
		return value;
	}
}
