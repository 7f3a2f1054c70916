package io.infergate.sim.kvevents;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import io.infergate.kvevents.KvEventBatch;
import io.infergate.kvevents.KvEventCodec;
import io.infergate.kvevents.KvEventFrames;
import io.infergate.sim.engine.KvEventSink;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Publishes an engine's KV-cache events as vLLM's {@code ZmqEventPublisher} does: a PUB socket sending
 * {@code [topic, sequence, payload]} per batch (sequence 8 bytes big-endian from 0, payload in the current msgpack
 * layout), and optionally a ROUTER replay socket that answers {@code [identity, empty, first sequence]} with
 * {@code [identity, empty, sequence, payload]} for each buffered batch from that sequence on, then
 * {@code [identity, empty, -1, empty]}. The last {@code bufferBatches} batches are kept for replay.
 * <p>
 * {@link #publish} queues the batch (blocking the engine thread only when 100,000 batches wait, as vLLM's queue does);
 * one thread numbers, encodes and sends them and serves replay requests between batches. Sockets bind to the given
 * host; port 0 binds any free port ({@link #port()}, {@link #replayPort()} tell which).
 */
public final class KvEventPublisher implements KvEventSink, AutoCloseable {

	private static final int QUEUE_CAPACITY = 100_000;

	private static final int SEND_HIGH_WATER_MARK = 100_000;

	private static final long POLL_MILLIS = 5;

	/**
	 * A connection whose ZMTP handshake has not completed by then is dropped. JeroMQ 0.6.0 now and then leaves a new
	 * connection unpolled on one side (the greeting sits unread); its default of 30 s would hold such a connection
	 * that long. A subscriber must set the same on its side to notice and reconnect.
	 */
	public static final int HANDSHAKE_MILLIS = 1000;

	private final ZContext context = new ZContext(1);

	private final ZMQ.Socket pub;

	private final ZMQ.Socket replay;

	private final int port;

	private final int replayPort;

	private final byte[] topic;

	private final int bufferBatches;

	private final BlockingQueue<KvEventBatch> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);

	/** (sequence, payload) of the last batches sent, oldest first; touched by the publisher thread only. */
	private final ArrayDeque<Sent> buffer = new ArrayDeque<>();

	private final Thread thread;

	private volatile boolean closed;

	private long nextSequence;

	/**
	 * Binds the sockets and starts the publishing thread.
	 * @param replayPort the replay socket's port, or −1 for none
	 * @throws org.zeromq.ZMQException if a port cannot be bound
	 */
	public KvEventPublisher(String host, int port, int replayPort, String topic, int bufferBatches) {
		if (bufferBatches < 1) {
			throw new IllegalArgumentException("the replay buffer holds at least one batch, got " + bufferBatches);
		}
		this.topic = topic.getBytes(StandardCharsets.UTF_8);
		this.bufferBatches = bufferBatches;
		String address = "tcp://" + (host.contains(":") ? "[" + host + "]" : host);
		try {
			this.pub = context.createSocket(SocketType.PUB);
			this.pub.setSndHWM(SEND_HIGH_WATER_MARK);
			this.pub.setLinger(0);
			this.pub.setHandshakeIvl(HANDSHAKE_MILLIS);
			this.port = bind(this.pub, address, port);
			if (replayPort >= 0) {
				this.replay = context.createSocket(SocketType.ROUTER);
				this.replay.setLinger(0);
				this.replay.setHandshakeIvl(HANDSHAKE_MILLIS);
				this.replayPort = bind(this.replay, address, replayPort);
			}
			else {
				this.replay = null;
				this.replayPort = -1;
			}
		}
		catch (RuntimeException ex) {
			context.close();
			throw ex;
		}
		this.thread = new Thread(this::run, "sim-kv-events-" + this.port);
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private static int bind(ZMQ.Socket socket, String address, int port) {
		if (port == 0) {
			return socket.bindToRandomPort(address);
		}
		socket.bind(address + ":" + port);
		return port;
	}

	/** The PUB socket's port. */
	public int port() {
		return port;
	}

	/** The replay socket's port, or −1 when there is none. */
	public int replayPort() {
		return replayPort;
	}

	@Override
	public void publish(KvEventBatch batch) {
		if (closed || queue.offer(batch)) {
			return;
		}
		try {
			queue.put(batch);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void run() {
		try {
			while (!closed) {
				KvEventBatch batch = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
				while (batch != null) {
					send(batch);
					batch = queue.poll();
				}
				while (replay != null && serveReplay()) {
					// every waiting request, between batches
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void send(KvEventBatch batch) {
		long sequence = nextSequence++;
		byte[] payload = KvEventCodec.encode(batch);
		pub.sendMore(topic);
		pub.sendMore(KvEventFrames.sequenceBytes(sequence));
		pub.send(payload);
		buffer.addLast(new Sent(sequence, payload));
		if (buffer.size() > bufferBatches) {
			buffer.removeFirst();
		}
	}

	/**
	 * Answers one replay request; a request that is not three frames is dropped, as vLLM does.
	 * @return false when no request was waiting
	 */
	private boolean serveReplay() {
		byte[] identity = replay.recv(ZMQ.DONTWAIT);
		if (identity == null) {
			return false;
		}
		List<byte[]> frames = new ArrayList<>();
		while (replay.hasReceiveMore()) {
			frames.add(replay.recv());
		}
		if (frames.size() != 2 || frames.get(0).length != 0 || frames.get(1).length != 8) {
			return true;
		}
		long first = KvEventFrames.sequence(frames.get(1));
		for (Sent sent : buffer) {
			if (sent.sequence() >= first) {
				replay.sendMore(identity);
				replay.sendMore(new byte[0]);
				replay.sendMore(KvEventFrames.sequenceBytes(sent.sequence()));
				replay.send(sent.payload());
			}
		}
		replay.sendMore(identity);
		replay.sendMore(new byte[0]);
		replay.sendMore(KvEventFrames.sequenceBytes(KvEventFrames.END_OF_REPLAY));
		replay.send(new byte[0]);
		return true;
	}

	/** Batches sent so far, which is also the next sequence number. */
	public long publishedBatches() {
		return nextSequence;
	}

	/** Stops the thread and closes the sockets; batches still queued are dropped. */
	@Override
	public void close() {
		closed = true;
		try {
			thread.join(5000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		context.close();
	}

	private record Sent(long sequence, byte[] payload) {
	}
}
