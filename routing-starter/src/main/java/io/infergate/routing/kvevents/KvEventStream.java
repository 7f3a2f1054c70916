package io.infergate.routing.kvevents;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

import io.infergate.kvevents.KvEventBatch;
import io.infergate.kvevents.KvEventCodec;
import io.infergate.kvevents.KvEventFormatException;
import io.infergate.kvevents.KvEventFrames;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.prefix.EngineBlockIndex;

/**
 * One endpoint's event stream: a SUB socket on its publisher, a DEALER on its replay socket, a monitor of the SUB's
 * connection, and the sequence bookkeeping that keeps the {@link EngineBlockIndex} to what the engine holds. Used by
 * the subscriber's thread only.
 * <ul>
 * <li><b>In order:</b> batch n is applied when n is the next expected.</li>
 * <li><b>Gap</b> (n beyond the next expected e): batches from n on are held, and e is asked of the replay socket.
 * Replayed batches are applied as they come; if the first is past e (the publisher's buffer no longer has e), the
 * batches in between are lost: the endpoint is emptied, then the replayed ones applied. At the replay's end the held
 * batches follow, those the replay already brought skipped.</li>
 * <li><b>First batch</b> after subscribing (or after the history was lost): a batch other than 0 asks for a replay
 * from 0, so a late subscriber learns what the publisher still buffers; whatever it cannot get is never stored in
 * the index, which under-claims but never over-claims.</li>
 * <li><b>Restart:</b> a batch numbered below the next expected means a new publisher (an engine restart, whose cache
 * starts empty): the endpoint is emptied and the batch read as a first batch.</li>
 * <li><b>Lost for good:</b> no replay socket, a replay that times out, a batch that does not decode, or a
 * connection down for longer than {@code stale-after}: the endpoint is emptied. An index that missed removals
 * would send requests to blocks that are gone; an empty one only misses hits.</li>
 * </ul>
 */
final class KvEventStream {

	private static final Log logger = LogFactory.getLog(KvEventStream.class);

	/** Live batches held while a replay runs; past this the replay is abandoned and the history counts as lost. */
	static final int MAX_HELD = 100_000;

	private static final int RECEIVE_HIGH_WATER_MARK = 100_000;

	/**
	 * A connection whose ZMTP handshake has not completed by then is dropped and made again. JeroMQ 0.6.0 now and then
	 * leaves a new connection unpolled (the peer's greeting sits unread, and so does its close); its default of 30 s
	 * would leave the stream deaf that long.
	 */
	static final int HANDSHAKE_MILLIS = 1000;

	private static final int RECONNECT_MILLIS = 100;

	private static final int RECONNECT_MAX_MILLIS = 2000;

	private static final int HEARTBEAT_MILLIS = 1000;

	private static final int HEARTBEAT_TIMEOUT_MILLIS = 3000;

	final EndpointId endpoint;

	final KvEventStreamSettings settings;

	private final EngineBlockIndex index;

	private final ZContext context;

	private final String monitorAddress;

	ZMQ.Socket sub;

	ZMQ.Socket replay;

	ZMQ.Socket monitor;

	private volatile long nextSequence = -1;

	private volatile boolean replaying;

	private long replayNext;

	private long replayDeadlineNanos;

	private final ArrayDeque<Held> held = new ArrayDeque<>();

	private volatile boolean connected;

	private long disconnectedAtNanos = -1;

	private volatile long batches;

	private volatile long events;

	private volatile long gaps;

	private volatile long replayedBatches;

	private volatile long lostHistories;

	private volatile long restarts;

	private volatile long malformed;

	KvEventStream(EndpointId endpoint, KvEventStreamSettings settings, EngineBlockIndex index, ZContext context,
			int monitorNumber) {
		this.endpoint = endpoint;
		this.settings = settings;
		this.index = index;
		this.context = context;
		this.monitorAddress = "inproc://infergate-kv-events-monitor-" + monitorNumber;
	}

	void open() {
		sub = context.createSocket(SocketType.SUB);
		sub.setLinger(0);
		sub.setRcvHWM(RECEIVE_HIGH_WATER_MARK);
		sub.setReconnectIVL(RECONNECT_MILLIS);
		sub.setReconnectIVLMax(RECONNECT_MAX_MILLIS);
		sub.setHeartbeatIvl(HEARTBEAT_MILLIS);
		sub.setHeartbeatTimeout(HEARTBEAT_TIMEOUT_MILLIS);
		sub.setHandshakeIvl(HANDSHAKE_MILLIS);
		sub.monitor(monitorAddress, ZMQ.EVENT_CONNECTED | ZMQ.EVENT_DISCONNECTED);
		monitor = context.createSocket(SocketType.PAIR);
		monitor.setLinger(0);
		monitor.connect(monitorAddress);
		sub.subscribe(settings.topic().getBytes(StandardCharsets.UTF_8));
		sub.connect(settings.publisherAddress());
		openReplay();
	}

	private void openReplay() {
		if (settings.replayAddress() != null) {
			replay = context.createSocket(SocketType.DEALER);
			replay.setLinger(0);
			replay.setHandshakeIvl(HANDSHAKE_MILLIS);
			replay.connect(settings.replayAddress());
		}
	}

	void close() {
		closeQuietly(sub);
		closeQuietly(replay);
		closeQuietly(monitor);
		sub = null;
		replay = null;
		monitor = null;
	}

	private void closeQuietly(ZMQ.Socket socket) {
		if (socket != null) {
			context.destroySocket(socket);
		}
	}

	/** Reads every message waiting on the SUB socket. */
	void readPublished() {
		byte[] first;
		while ((first = sub.recv(ZMQ.DONTWAIT)) != null) {
			byte[][] frames = rest(sub, first);
			if (frames.length != 3 || frames[1].length != 8) {
				malformed++;
				continue;
			}
			onPublished(KvEventFrames.sequence(frames[1]), frames[2]);
		}
	}

	/** Reads every reply waiting on the replay socket. */
	void readReplayed() {
		byte[] first;
		while (replay != null && (first = replay.recv(ZMQ.DONTWAIT)) != null) {
			byte[][] frames = rest(replay, first);
			if (frames.length != 3 || frames[0].length != 0 || frames[1].length != 8) {
				malformed++;
				continue;
			}
			onReplayed(KvEventFrames.sequence(frames[1]), frames[2]);
		}
	}

	/** Reads the connection events the monitor has. */
	void readMonitor(long nowNanos) {
		ZMQ.Event event;
		while ((event = ZMQ.Event.recv(monitor, ZMQ.DONTWAIT)) != null) {
			if (event.getEvent() == ZMQ.EVENT_CONNECTED) {
				connected = true;
				disconnectedAtNanos = -1;
			}
			else if (event.getEvent() == ZMQ.EVENT_DISCONNECTED) {
				connected = false;
				disconnectedAtNanos = nowNanos;
			}
		}
	}

	/** Replay and staleness deadlines. */
	void tick(long nowNanos) {
		if (replaying && nowNanos - replayDeadlineNanos > 0) {
			logger.warn("KV events of " + endpoint + ": replay from " + replayNext + " timed out after "
					+ settings.replayTimeout().toMillis() + " ms");
			// replies to the abandoned request must not be read as answers to a later one
			closeQuietly(replay);
			openReplay();
			endReplay();
		}
		if (!connected && disconnectedAtNanos >= 0
				&& nowNanos - disconnectedAtNanos > settings.staleAfter().toNanos()) {
			disconnectedAtNanos = -1;
			if (nextSequence >= 0) {
				logger.warn("KV events of " + endpoint + ": disconnected for over "
						+ settings.staleAfter().toMillis() + " ms; its blocks are forgotten until it is back");
				loseHistory();
				nextSequence = -1;
			}
		}
	}

	private void onPublished(long sequence, byte[] payload) {
		if (replaying) {
			hold(sequence, payload);
			return;
		}
		onInOrder(sequence, payload);
	}

	/** A batch read from the stream (or held through a replay), no replay running. */
	private void onInOrder(long sequence, byte[] payload) {
		if (nextSequence < 0) {
			if (sequence == 0) {
				apply(sequence, payload);
			}
			else {
				startReplay(0, sequence, payload);
			}
		}
		else if (sequence == nextSequence) {
			apply(sequence, payload);
		}
		else if (sequence < nextSequence) {
			restarts++;
			logger.info("KV events of " + endpoint + ": sequence went back from " + nextSequence + " to " + sequence
					+ " (a restarted publisher); its blocks are forgotten");
			index.clear(endpoint);
			nextSequence = -1;
			onInOrder(sequence, payload);
		}
		else {
			gaps++;
			startReplay(nextSequence, sequence, payload);
		}
	}

	private void startReplay(long from, long sequence, byte[] payload) {
		held.addFirst(new Held(sequence, payload));
		if (replay == null) {
			endReplay();
			return;
		}
		replay.sendMore(new byte[0]);
		replay.send(KvEventFrames.sequenceBytes(from));
		replaying = true;
		replayNext = from;
		replayDeadlineNanos = System.nanoTime() + settings.replayTimeout().toNanos();
	}

	private void onReplayed(long sequence, byte[] payload) {
		if (!replaying) {
			return;
		}
		if (sequence == KvEventFrames.END_OF_REPLAY) {
			endReplay();
			return;
		}
		if (sequence < replayNext) {
			return;
		}
		if (sequence > replayNext && nextSequence >= 0) {
			logger.warn("KV events of " + endpoint + ": batches " + replayNext + " to " + (sequence - 1)
					+ " are no longer buffered by the publisher; its blocks are forgotten and rebuilt from " + sequence);
			loseHistory();
		}
		replayNext = sequence + 1;
		replayedBatches++;
		apply(sequence, payload);
	}

	/** The replay is over (ended, timed out or impossible): the held batches follow, in order. */
	private void endReplay() {
		replaying = false;
		Held first = held.peekFirst();
		if (first != null && nextSequence >= 0 && first.sequence() > nextSequence) {
			logger.warn("KV events of " + endpoint + ": batches " + nextSequence + " to " + (first.sequence() - 1)
					+ " could not be replayed; its blocks are forgotten and rebuilt from " + first.sequence());
			loseHistory();
		}
		if (first != null && (nextSequence < 0 || first.sequence() > nextSequence)) {
			nextSequence = first.sequence();
		}
		Held next;
		while (!replaying && (next = held.pollFirst()) != null) {
			if (next.sequence() >= nextSequence) {
				onInOrder(next.sequence(), next.payload());
			}
		}
	}

	private void hold(long sequence, byte[] payload) {
		if (held.size() < MAX_HELD) {
			held.addLast(new Held(sequence, payload));
			return;
		}
		logger.warn("KV events of " + endpoint + ": more than " + MAX_HELD + " batches arrived during a replay");
		held.clear();
		replaying = false;
		loseHistory();
		nextSequence = sequence;
		apply(sequence, payload);
	}

	private void apply(long sequence, byte[] payload) {
		nextSequence = sequence + 1;
		KvEventBatch batch;
		try {
			batch = KvEventCodec.decode(payload);
		}
		catch (KvEventFormatException ex) {
			malformed++;
			logger.warn("KV events of " + endpoint + ": batch " + sequence + " is not a KV-event batch ("
					+ ex.getMessage() + "); its blocks are forgotten");
			loseHistory();
			return;
		}
		index.apply(endpoint, batch);
		batches++;
		events += batch.events().size();
	}

	private void loseHistory() {
		lostHistories++;
		index.clear(endpoint);
	}

	KvEventStreamStatus status() {
		return new KvEventStreamStatus(endpoint.toString(), settings.publisherAddress(), connected, nextSequence,
				replaying, batches, events, gaps, replayedBatches, lostHistories, restarts, malformed);
	}

	private static byte[][] rest(ZMQ.Socket socket, byte[] first) {
		if (!socket.hasReceiveMore()) {
			return new byte[][] { first };
		}
		List<byte[]> frames = new ArrayList<>(4);
		frames.add(first);
		while (socket.hasReceiveMore()) {
			frames.add(socket.recv());
		}
		return frames.toArray(new byte[0][]);
	}

	private record Held(long sequence, byte[] payload) {
	}
}
