package io.infergate.routing.replica;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Objects;

import io.infergate.routing.endpoint.EndpointId;

/**
 * One session's dispatch as a gateway replica tells the others: which replica sent a request of which session (the
 * XXH3 hash of its key, never the key) to which endpoint of which pool. It travels on the channel of
 * {@link PeerDispatch}es, told apart by its first byte.
 * <p>
 * Wire format, big-endian:
 * <pre>
 * byte    2
 * long    replica id
 * short   pool length, then the pool name in UTF-8
 * short   host length, then the endpoint's host in UTF-8
 * short   port (unsigned)
 * long    the session key's hash
 * </pre>
 *
 * @param replica the sender's id, random per gateway start
 * @param pool the pool the request was routed in
 * @param endpoint where it went
 * @param sessionKeyHash {@link io.infergate.routing.scheduling.scorer.SessionAffinityScorer#hashKey} of its session
 */
public record PeerSession(long replica, String pool, EndpointId endpoint, long sessionKeyHash) {

	static final byte TYPE = 2;

	public PeerSession {
		Objects.requireNonNull(pool, "pool");
		Objects.requireNonNull(endpoint, "endpoint");
	}

	public byte[] encode() {
		return PeerDispatch.header(TYPE, replica, pool, endpoint, 8).putLong(sessionKeyHash).array();
	}

	/** Whether {@code message} claims to be a peer session (its first byte); {@link #decode} checks the rest. */
	static boolean isSession(byte[] message) {
		return message.length > 0 && message[0] == TYPE;
	}

	/**
	 * Reads what {@link #encode()} wrote.
	 * @throws IllegalArgumentException when the bytes are not a peer session
	 */
	public static PeerSession decode(byte[] message) {
		ByteBuffer buffer = ByteBuffer.wrap(message);
		try {
			byte type = buffer.get();
			if (type != TYPE) {
				throw new IllegalArgumentException("not a peer session: type " + type);
			}
			long replica = buffer.getLong();
			String pool = PeerDispatch.string(buffer);
			EndpointId endpoint = PeerDispatch.endpoint(buffer);
			long hash = buffer.getLong();
			if (buffer.hasRemaining()) {
				throw new IllegalArgumentException(buffer.remaining() + " bytes after a peer session");
			}
			return new PeerSession(replica, pool, endpoint, hash);
		}
		catch (BufferUnderflowException ex) {
			throw new IllegalArgumentException("truncated peer session of " + message.length + " bytes", ex);
		}
	}
}
