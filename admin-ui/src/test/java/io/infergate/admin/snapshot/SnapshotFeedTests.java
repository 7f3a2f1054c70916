package io.infergate.admin.snapshot;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.test.scheduler.VirtualTimeScheduler;

import static org.assertj.core.api.Assertions.assertThat;

class SnapshotFeedTests {

	private static final Duration TICK = Duration.ofMillis(500);

	private final VirtualTimeScheduler time = VirtualTimeScheduler.create();

	private final AtomicInteger snapshots = new AtomicInteger();

	private final SnapshotFeed feed = new SnapshotFeed(() -> "{\"n\":" + snapshots.incrementAndGet() + "}", TICK, time);

	private final List<Disposable> subscribers = new ArrayList<>();

	@AfterEach
	void unsubscribe() {
		subscribers.forEach(Disposable::dispose);
	}

	@Test
	void twentySubscribersShareOneSnapshotPerTick() {
		List<List<String>> received = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			received.add(subscribe());
		}

		time.advanceTimeBy(TICK.multipliedBy(10));

		assertThat(snapshots).hasValue(11); // at 0, then every tick
		for (List<String> frames : received) {
			assertThat(frames).hasSize(11).endsWith("event: snapshot\ndata: {\"n\":11}\n\n");
		}
	}

	@Test
	void ticksOnlyWhileSomeoneSubscribes() {
		time.advanceTimeBy(TICK.multipliedBy(10));
		assertThat(snapshots).hasValue(0);

		subscribe();
		subscribe();
		time.advanceTimeBy(TICK.multipliedBy(2));
		subscribers.forEach(Disposable::dispose);
		int whileSubscribed = snapshots.get();
		time.advanceTimeBy(TICK.multipliedBy(10));

		assertThat(whileSubscribed).isEqualTo(3);
		assertThat(snapshots).hasValue(3);
	}

	@Test
	void aLateSubscriberGetsTheLatestFrameAtOnce() {
		subscribe();
		time.advanceTimeBy(TICK.multipliedBy(3).plusMillis(100));

		List<String> late = subscribe();

		assertThat(late).containsExactly("event: snapshot\ndata: {\"n\":4}\n\n");
		assertThat(snapshots).hasValue(4);
	}

	@Test
	void aSnapshotThatFailsSkipsItsTickOnly() {
		AtomicInteger calls = new AtomicInteger();
		SnapshotFeed failingOnce = new SnapshotFeed(() -> {
			if (calls.incrementAndGet() == 2) {
				throw new IllegalStateException("a source failed");
			}
			return "{\"n\":" + calls.get() + "}";
		}, TICK, time);
		List<String> frames = new CopyOnWriteArrayList<>();
		subscribers.add(failingOnce.frames().subscribe((frame) -> frames.add(new String(frame, StandardCharsets.UTF_8))));

		time.advanceTimeBy(TICK.multipliedBy(2));

		assertThat(frames).containsExactly("event: snapshot\ndata: {\"n\":1}\n\n", "event: snapshot\ndata: {\"n\":3}\n\n");
	}

	private List<String> subscribe() {
		List<String> frames = new CopyOnWriteArrayList<>();
		subscribers.add(feed.frames().subscribe((frame) -> frames.add(new String(frame, StandardCharsets.UTF_8))));
		return frames;
	}
}
