package io.infergate.sim.kvevents;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.infergate.kvevents.AllBlocksCleared;
import io.infergate.kvevents.BlockRemoved;
import io.infergate.kvevents.KvCacheEvent;
import io.infergate.kvevents.KvEventBatch;
import io.infergate.kvevents.KvEventCodec;
import io.infergate.kvevents.KvEventFrames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

import static org.assertj.core.api.Assertions.assertThat;

/** The publisher over real ZeroMQ sockets on loopback, as a vLLM subscriber would see it. */
class KvEventPublisherTests {

	private final ZContext client = new ZContext();

	private KvEventPublisher publisher;

	@AfterEach
	void close() {
		if (publisher != null) {
			publisher.close();
		}
		client.close();
	}

	private static KvEventBatch batch(long hash) {
		List<KvCacheEvent> events = List.of(new BlockRemoved(new long[] { hash }, "GPU", null));
		return new KvEventBatch(1.5, events, 0);
	}

	@Test
	void eachBatchIsTopicSequenceAndPayloadNumberedFromZero() {
		publisher = new KvEventPublisher("127.0.0.1", 0, -1, "kv", 10);
		ZMQ.Socket sub = client.createSocket(SocketType.SUB);
		sub.setHandshakeIvl(KvEventPublisher.HANDSHAKE_MILLIS);
		sub.connect("tcp://127.0.0.1:" + publisher.port());
		sub.subscribe("kv".getBytes(StandardCharsets.UTF_8));
		long probes = awaitSubscription(sub);

		publisher.publish(new KvEventBatch(2.0, List.of(AllBlocksCleared.INSTANCE), 0));

		List<byte[]> frames = receive(sub);
		assertThat(frames).hasSize(3);
		assertThat(new String(frames.get(0), StandardCharsets.UTF_8)).isEqualTo("kv");
		assertThat(KvEventFrames.sequence(frames.get(1))).isEqualTo(probes);
		assertThat(KvEventCodec.decode(frames.get(2)))
			.isEqualTo(new KvEventBatch(2.0, List.of(AllBlocksCleared.INSTANCE), 0));
	}

	/**
	 * PUB drops what it sends before a subscription reaches it: publishes probes until one arrives and checks that the
	 * probes were numbered 0, 1, ... Returns how many were published, all of them drained.
	 */
	private long awaitSubscription(ZMQ.Socket sub) {
		sub.setReceiveTimeOut(50);
		long expected = -1;
		for (int attempt = 0; attempt < 600 && expected < 0; attempt++) {
			publisher.publish(batch(attempt));
			List<byte[]> frames = receiveOrNull(sub);
			if (frames != null) {
				expected = KvEventFrames.sequence(frames.get(1)) + 1;
			}
		}
		assertThat(expected).as("a probe got through").isPositive();
		awaitPublished(expected);
		long published = publisher.publishedBatches();
		sub.setReceiveTimeOut(200);
		List<byte[]> frames;
		while ((frames = receiveOrNull(sub)) != null) {
			assertThat(KvEventFrames.sequence(frames.get(1))).isEqualTo(expected++);
		}
		assertThat(expected).isEqualTo(published);
		sub.setReceiveTimeOut(15_000);
		return published;
	}

	private static List<byte[]> receiveOrNull(ZMQ.Socket socket) {
		byte[] frame = socket.recv();
		if (frame == null) {
			return null;
		}
		List<byte[]> frames = new ArrayList<>();
		frames.add(frame);
		while (socket.hasReceiveMore()) {
			frames.add(socket.recv());
		}
		return frames;
	}

	@Test
	void replayAnswersEveryBufferedBatchFromTheSequenceAskedThenMinusOne() {
		publisher = new KvEventPublisher("127.0.0.1", 0, 0, "", 3);
		for (long hash = 1; hash <= 5; hash++) {
			publisher.publish(batch(hash));
		}
		awaitPublished(5);
		ZMQ.Socket dealer = client.createSocket(SocketType.DEALER);
		dealer.setHandshakeIvl(KvEventPublisher.HANDSHAKE_MILLIS);
		dealer.setReceiveTimeOut(15_000);
		dealer.connect("tcp://127.0.0.1:" + publisher.replayPort());

		dealer.sendMore(new byte[0]);
		dealer.send(KvEventFrames.sequenceBytes(1));

		List<Long> sequences = new ArrayList<>();
		List<Long> hashes = new ArrayList<>();
		while (true) {
			List<byte[]> reply = receive(dealer);
			assertThat(reply).hasSize(3);
			assertThat(reply.get(0)).isEmpty();
			long sequence = KvEventFrames.sequence(reply.get(1));
			if (sequence == KvEventFrames.END_OF_REPLAY) {
				assertThat(reply.get(2)).isEmpty();
				break;
			}
			sequences.add(sequence);
			hashes.add(((BlockRemoved) KvEventCodec.decode(reply.get(2)).events().get(0)).blockHashes()[0]);
		}
		// a buffer of 3 keeps sequences 2..4: the request from 1 gets those
		assertThat(sequences).containsExactly(2L, 3L, 4L);
		assertThat(hashes).containsExactly(3L, 4L, 5L);
	}

	@Test
	void aMalformedReplayRequestIsIgnoredAndTheNextOneServed() {
		publisher = new KvEventPublisher("127.0.0.1", 0, 0, "", 10);
		publisher.publish(batch(1));
		awaitPublished(1);
		ZMQ.Socket dealer = client.createSocket(SocketType.DEALER);
		dealer.setHandshakeIvl(KvEventPublisher.HANDSHAKE_MILLIS);
		dealer.setReceiveTimeOut(15_000);
		dealer.connect("tcp://127.0.0.1:" + publisher.replayPort());

		dealer.send(KvEventFrames.sequenceBytes(0)); // no empty delimiter
		dealer.sendMore(new byte[0]);
		dealer.send(KvEventFrames.sequenceBytes(0));

		List<byte[]> first = receive(dealer);
		assertThat(KvEventFrames.sequence(first.get(1))).isZero();
		assertThat(KvEventFrames.sequence(receive(dealer).get(1))).isEqualTo(KvEventFrames.END_OF_REPLAY);
	}

	private void awaitPublished(long batches) {
		long deadline = System.nanoTime() + 15_000_000_000L;
		while (publisher.publishedBatches() < batches && System.nanoTime() < deadline) {
			Thread.onSpinWait();
		}
		assertThat(publisher.publishedBatches()).isGreaterThanOrEqualTo(batches);
	}

	private static List<byte[]> receive(ZMQ.Socket socket) {
		List<byte[]> frames = receiveOrNull(socket);
		assertThat(frames).as("a message within the timeout").isNotNull();
		return frames;
	}
}
