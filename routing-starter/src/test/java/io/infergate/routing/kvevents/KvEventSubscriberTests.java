package io.infergate.routing.kvevents;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.infergate.kvevents.AllBlocksCleared;
import io.infergate.kvevents.BlockRemoved;
import io.infergate.kvevents.BlockStored;
import io.infergate.kvevents.KvCacheEvent;
import io.infergate.kvevents.KvEventBatch;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.prefix.EngineBlockIndexProperties;
import io.infergate.routing.prefix.TokenBlockKeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The subscriber against publishers on real ZeroMQ sockets on loopback: batches lost on the way, late joins, restarts,
 * streams gone stale, and the older encoding.
 */
class KvEventSubscriberTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final EngineBlockIndex index = new EngineBlockIndex(EngineBlockIndexProperties.defaults());

	private final KvEventSubscriber subscriber = new KvEventSubscriber(index);

	private final Endpoint pod = new Endpoint("pool", URI.create("http://127.0.0.1:18000"));

	private ScriptedPublisher publisher;

	@AfterEach
	void close() {
		subscriber.close();
		if (publisher != null) {
			publisher.close();
		}
	}

	private static KvEventBatch batch(KvCacheEvent... events) {
		return new KvEventBatch(1.0, List.of(events), 0);
	}

	/** A chain from the root of blocks {@code labels}, named so by the engine, block n holding 16 tokens of id n. */
	private static BlockStored stored(long... labels) {
		return new BlockStored(labels, null, tokens(labels), 16, null, "GPU", null, null);
	}

	private static int[] tokens(long... labels) {
		int[] tokens = new int[16 * labels.length];
		for (int i = 0; i < tokens.length; i++) {
			tokens[i] = (int) labels[i / 16];
		}
		return tokens;
	}

	private void subscribe(Duration staleAfter) {
		subscriber.subscribe(pod.id(), new KvEventStreamSettings(publisher.address(), publisher.replayAddress(), "",
				Duration.ofSeconds(2), staleAfter));
	}

	/** Sends empty batches until one arrives: from then on the subscription is in place. */
	private void awaitStreaming() {
		await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
			publisher.publish(batch());
			return status((s) -> s.batches() > 0);
		});
	}

	private boolean status(Predicate<KvEventStreamStatus> condition) {
		List<KvEventStreamStatus> statuses = subscriber.status();
		return !statuses.isEmpty() && condition.test(statuses.get(0));
	}

	private KvEventStreamStatus status() {
		return subscriber.status().get(0);
	}

	/** The leading blocks the pod holds of a prompt made of the blocks {@code labels}. */
	private int matched(long... labels) {
		long[] keys = new long[labels.length];
		TokenBlockKeys.keys(tokens(labels), 16 * labels.length, 16, null, keys);
		return index.matchedBlocks(keys, keys.length, List.of(pod))[0];
	}

	@Test
	void aBatchLostOnTheWayIsDetectedAsAGapAndRecoveredThroughReplay() {
		publisher = new ScriptedPublisher(0, 0, 100);
		subscribe(Duration.ofSeconds(30));
		awaitStreaming();

		publisher.publish(batch(stored(1, 2)));
		publisher.publishButLose(batch(new BlockRemoved(new long[] { 2 }, "GPU", null), stored(3)));
		long last = publisher.publish(batch(stored(4)));

		await().atMost(WAIT).until(() -> status((s) -> s.nextSequence() == last + 1));
		assertThat(status().gaps()).isEqualTo(1);
		assertThat(status().replayedBatches()).isGreaterThanOrEqualTo(1);
		assertThat(status().lostHistories()).isZero();
		// the lost batch's removal and store were applied: block 2 gone, block 3 there
		assertThat(matched(1, 2)).isEqualTo(1);
		assertThat(matched(3)).isEqualTo(1);
		assertThat(matched(4)).isEqualTo(1);
	}

	@Test
	void aLateSubscriberLearnsTheHistoryThroughReplay() {
		publisher = new ScriptedPublisher(0, 0, 100);
		publisher.publish(batch(stored(10, 11)));
		publisher.publish(batch(stored(12)));
		publisher.publish(batch(new BlockRemoved(new long[] { 12 }, "GPU", null)));

		subscribe(Duration.ofSeconds(30));
		awaitStreaming();

		assertThat(matched(10, 11, 12)).isEqualTo(2);
		assertThat(status().replayedBatches()).isGreaterThanOrEqualTo(3);
		assertThat(status().lostHistories()).isZero();
	}

	@Test
	void aGapTheReplayBufferNoLongerCoversEmptiesTheEndpointRatherThanKeepStaleBlocks() {
		publisher = new ScriptedPublisher(0, 0, 2);
		subscribe(Duration.ofSeconds(30));
		awaitStreaming();
		publisher.publish(batch(stored(1)));

		// five batches lost, two buffered: the removal of block 1 is gone for good
		publisher.publishButLose(batch(new BlockRemoved(new long[] { 1 }, "GPU", null)));
		publisher.publishButLose(batch());
		publisher.publishButLose(batch());
		publisher.publishButLose(batch(stored(7)));
		publisher.publishButLose(batch(stored(8)));
		long last = publisher.publish(batch(stored(9)));

		await().atMost(WAIT).until(() -> status((s) -> s.nextSequence() == last + 1));
		assertThat(status().lostHistories()).isEqualTo(1);
		assertThat(matched(1)).as("forgotten, not kept stale").isZero();
		assertThat(matched(8)).as("replayed").isEqualTo(1);
		assertThat(matched(9)).isEqualTo(1);
		assertThat(matched(7)).as("lost with the rest").isZero();
	}

	@Test
	void aRestartedPublisherIsReadAgainFromScratch() {
		// far ahead of the restarted engine, which numbers from 0: its first batches, sent before the subscriber
		// has reconnected, are lost as on a real restart, and what arrives next still numbers below the old stream
		publisher = new ScriptedPublisher(0, 0, 100, 1_000_000);
		int port = publisher.port();
		int replayPort = publisher.replayPort();
		subscribe(Duration.ofSeconds(30));
		awaitStreaming();
		publisher.publish(batch(stored(1)));
		publisher.publish(batch(stored(2)));
		publisher.publish(batch(stored(3)));
		await().atMost(WAIT).until(() -> matched(3) == 1);

		publisher.close();
		publisher = new ScriptedPublisher(port, replayPort, 100);
		await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
			publisher.publish(batch(stored(5)));
			return matched(5) == 1;
		});

		assertThat(status().restarts()).isEqualTo(1);
		assertThat(matched(1)).as("the old engine's blocks").isZero();
		assertThat(matched(3)).isZero();
	}

	@Test
	void allBlocksClearedEmptiesTheEndpoint() {
		publisher = new ScriptedPublisher(0, 0, 100);
		subscribe(Duration.ofSeconds(30));
		awaitStreaming();
		publisher.publish(batch(stored(1, 2)));
		await().atMost(WAIT).until(() -> matched(1, 2) == 2);

		publisher.publish(batch(AllBlocksCleared.INSTANCE, stored(5)));

		await().atMost(WAIT).until(() -> matched(5) == 1);
		assertThat(matched(1)).isZero();
	}

	@Test
	void theOlderArrayEncodingIsReadToo() {
		publisher = new ScriptedPublisher(0, 0, 100);
		subscribe(Duration.ofSeconds(30));
		awaitStreaming();

		publisher.publishArrayLike(batch(stored(21, 22)));

		await().atMost(WAIT).until(() -> matched(21, 22) == 2);
	}

	@Test
	void aStreamDisconnectedLongerThanStaleAfterIsForgotten() {
		publisher = new ScriptedPublisher(0, 0, 100);
		subscribe(Duration.ofMillis(300));
		awaitStreaming();
		publisher.publish(batch(stored(1)));
		await().atMost(WAIT).until(() -> matched(1) == 1);

		publisher.close();
		publisher = null;

		await().atMost(WAIT).until(() -> matched(1) == 0);
		assertThat(status().connected()).isFalse();
		assertThat(status().nextSequence()).isEqualTo(-1);
	}

	@Test
	void unsubscribingPurgesTheEndpoint() {
		publisher = new ScriptedPublisher(0, 0, 100);
		subscribe(Duration.ofSeconds(30));
		awaitStreaming();
		publisher.publish(batch(stored(1)));
		await().atMost(WAIT).until(() -> matched(1) == 1);

		subscriber.unsubscribe(pod.id());

		await().atMost(WAIT).until(() -> index.blockSize(pod.id()) == 0 && subscriber.status().isEmpty());
		assertThat(matched(1)).isZero();
	}
}
