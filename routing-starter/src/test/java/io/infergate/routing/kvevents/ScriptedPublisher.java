package io.infergate.routing.kvevents;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

import io.infergate.kvevents.KvEventBatch;
import io.infergate.kvevents.KvEventCodec;
import io.infergate.kvevents.KvEventFrames;

/**
 * A publisher on real ZeroMQ sockets, with vLLM's frames and replay, whose test can lose a batch on the way to its
 * subscribers while keeping it for replay, start numbering over (a restart), or send the older array layout.
 * Publishing happens on the test's thread; a thread of its own serves replay requests.
 */
final class ScriptedPublisher implements AutoCloseable {

	private final ZContext context = new ZContext(1);

	private final ZMQ.Socket pub;

	private final ZMQ.Socket router;

	private final int port;

	private final int replayPort;

	private final int bufferBatches;

	private final ArrayDeque<long[]> bufferedSequences = new ArrayDeque<>();

	private final ArrayDeque<byte[]> bufferedPayloads = new ArrayDeque<>();

	private final Thread replayThread;

	private volatile boolean closed;

	private long nextSequence;

	/** Binds {@code port} and {@code replayPort} (0: any free port). */
	ScriptedPublisher(int port, int replayPort, int bufferBatches) {
		this.bufferBatches = bufferBatches;
		pub = context.createSocket(SocketType.PUB);
		pub.setHandshakeIvl(1000);
		pub.setLinger(0);
		this.port = bind(pub, port);
		router = context.createSocket(SocketType.ROUTER);
		router.setHandshakeIvl(1000);
		router.setLinger(0);
		router.setReceiveTimeOut(50);
		this.replayPort = bind(router, replayPort);
		replayThread = new Thread(this::serveReplays, "scripted-publisher-replay");
		replayThread.setDaemon(true);
		replayThread.start();
	}

	private static int bind(ZMQ.Socket socket, int port) {
		if (port == 0) {
			return socket.bindToRandomPort("tcp://127.0.0.1");
		}
		socket.bind("tcp://127.0.0.1:" + port);
		return port;
	}

	int port() {
		return port;
	}

	int replayPort() {
		return replayPort;
	}

	String address() {
		return "tcp://127.0.0.1:" + port;
	}

	String replayAddress() {
		return "tcp://127.0.0.1:" + replayPort;
	}

	/** Sends the batch in the current layout and buffers it for replay. */
	long publish(KvEventBatch batch) {
		return send(KvEventCodec.encode(batch), true);
	}

	/** Sends the batch in the older array layout. */
	long publishArrayLike(KvEventBatch batch) {
		return send(KvEventCodec.encodeArrayLike(batch), true);
	}

	/** Numbers and buffers the batch as if sent, but no subscriber gets it: a batch lost on the way. */
	long publishButLose(KvEventBatch batch) {
		return send(KvEventCodec.encode(batch), false);
	}

	private long send(byte[] payload, boolean deliver) {
		long sequence = nextSequence++;
		if (deliver) {
			pub.sendMore(new byte[0]);
			pub.sendMore(KvEventFrames.sequenceBytes(sequence));
			pub.send(payload);
		}
		synchronized (bufferedSequences) {
			bufferedSequences.addLast(new long[] { sequence });
			bufferedPayloads.addLast(payload);
			if (bufferedSequences.size() > bufferBatches) {
				bufferedSequences.removeFirst();
				bufferedPayloads.removeFirst();
			}
		}
		return sequence;
	}

	private void serveReplays() {
		while (!closed) {
			byte[] identity = router.recv();
			if (identity == null) {
				continue;
			}
			List<byte[]> frames = new ArrayList<>();
			while (router.hasReceiveMore()) {
				frames.add(router.recv());
			}
			if (frames.size() != 2) {
				continue;
			}
			long first = KvEventFrames.sequence(frames.get(1));
			List<long[]> sequences;
			List<byte[]> payloads;
			synchronized (bufferedSequences) {
				sequences = new ArrayList<>(bufferedSequences);
				payloads = new ArrayList<>(bufferedPayloads);
			}
			for (int i = 0; i < sequences.size(); i++) {
				if (sequences.get(i)[0] >= first) {
					router.sendMore(identity);
					router.sendMore(new byte[0]);
					router.sendMore(KvEventFrames.sequenceBytes(sequences.get(i)[0]));
					router.send(payloads.get(i));
				}
			}
			router.sendMore(identity);
			router.sendMore(new byte[0]);
			router.sendMore(KvEventFrames.sequenceBytes(KvEventFrames.END_OF_REPLAY));
			router.send(new byte[0]);
		}
	}

	@Override
	public void close() {
		closed = true;
		try {
			replayThread.join(5000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		context.close();
	}
}
