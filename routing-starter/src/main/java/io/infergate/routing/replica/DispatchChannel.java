package io.infergate.routing.replica;

import java.util.function.Consumer;

/**
 * How gateway replicas hear of each other's dispatches: a broadcast of encoded {@link PeerDispatch}es. Redis pub/sub
 * in a deployment ({@link RedisDispatchChannel}); the bench harness has an in-process stand-in with a propagation
 * delay in virtual time.
 * <p>
 * Delivery is best effort: a message lost while the transport is down only leaves the receivers' prefix indexes a
 * little less complete, and the next dispatch of the same prompt fills them in.
 */
public interface DispatchChannel extends AutoCloseable {

	/** Sends {@code message} to every subscribed replica, this one included. Never blocks the caller. */
	void publish(byte[] message);

	/** Delivers every message published from now on to {@code receiver}, on a thread of the channel's choosing. */
	void subscribe(Consumer<byte[]> receiver);

	/** Stops delivering and releases the transport. */
	@Override
	void close();
}
