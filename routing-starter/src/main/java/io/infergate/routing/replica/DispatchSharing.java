package io.infergate.routing.replica;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.prefix.PrefixHashes;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.RecordedDispatchListener;

/**
 * Shared dispatch memory: every gateway replica tells the others what its own decisions sent where, and records what
 * they sent in its own {@link PrefixIndex}, so the replicas' approximate indexes converge on the index one gateway
 * carrying all the traffic would have.
 * <ul>
 * <li><b>Out</b>: each dispatch the index records ({@link RecordedDispatchListener}) is encoded as a
 * {@link PeerDispatch} and published on the {@link DispatchChannel}, on the scheduling thread, without waiting.</li>
 * <li><b>In</b>: a peer's dispatch is recorded with {@link PrefixIndex#record} as if this replica had made it, unless
 * it is this replica's own (the channel echoes it) or names an endpoint that this replica's pool does not have (so
 * an endpoint the local registry removed is never brought back into the index).</li>
 * </ul>
 * A replica's id is random per start. What the index records from peers is not counted in its prediction figures:
 * those stay this replica's own. The channel belongs to whoever created it, who also closes it.
 */
public final class DispatchSharing implements RecordedDispatchListener {

	private static final Log logger = LogFactory.getLog(DispatchSharing.class);

	private final PrefixIndex index;

	private final DispatchChannel channel;

	private final EndpointRegistry registry;

	private final long replica;

	private final LongAdder published = new LongAdder();

	private final LongAdder publishFailures = new LongAdder();

	private final LongAdder received = new LongAdder();

	private final LongAdder applied = new LongAdder();

	private final LongAdder rejected = new LongAdder();

	/**
	 * @param registry the pools whose endpoints a peer's dispatch may name, or {@code null} to accept any endpoint
	 */
	public DispatchSharing(PrefixIndex index, DispatchChannel channel, EndpointRegistry registry) {
		this(index, channel, registry, ThreadLocalRandom.current().nextLong());
	}

	DispatchSharing(PrefixIndex index, DispatchChannel channel, EndpointRegistry registry, long replica) {
		this.index = index;
		this.channel = channel;
		this.registry = registry;
		this.replica = replica;
	}

	/** Starts hearing peers and telling them; call once. */
	public DispatchSharing start() {
		channel.subscribe(this::receive);
		index.addRecordedDispatchListener(this);
		return this;
	}

	public long replica() {
		return replica;
	}

	@Override
	public void recorded(String pool, EndpointId endpoint, PrefixHashes hashes) {
		try {
			channel.publish(new PeerDispatch(replica, pool, endpoint, hashes).encode());
			published.increment();
		}
		catch (RuntimeException ex) {
			// sharing is best effort: a dispatch must never fail because a peer cannot hear of it
			publishFailures.increment();
			if (logger.isDebugEnabled()) {
				logger.debug("Could not share a dispatch to " + endpoint, ex);
			}
		}
	}

	/** Records a peer's dispatch in the index; ignores this replica's own, unknown endpoints and malformed bytes. */
	void receive(byte[] message) {
		received.increment();
		PeerDispatch dispatch;
		try {
			dispatch = PeerDispatch.decode(message);
		}
		catch (IllegalArgumentException ex) {
			rejected.increment();
			if (logger.isDebugEnabled()) {
				logger.debug("Ignoring a malformed peer dispatch: " + ex.getMessage());
			}
			return;
		}
		if (dispatch.replica() == replica) {
			return;
		}
		if (!knows(dispatch.pool(), dispatch.endpoint())) {
			rejected.increment();
			return;
		}
		index.record(dispatch.hashes(), dispatch.endpoint());
		applied.increment();
	}

	private boolean knows(String poolName, EndpointId endpoint) {
		if (registry == null) {
			return true;
		}
		EndpointPool pool = registry.pool(poolName);
		if (pool == null) {
			return false;
		}
		List<Endpoint> endpoints = pool.endpoints();
		for (int i = 0, n = endpoints.size(); i < n; i++) {
			if (endpoints.get(i).id().equals(endpoint)) {
				return true;
			}
		}
		return false;
	}

	public DispatchSharingStats stats() {
		return new DispatchSharingStats(published.sum(), publishFailures.sum(), received.sum(), applied.sum(),
				rejected.sum());
	}
}
