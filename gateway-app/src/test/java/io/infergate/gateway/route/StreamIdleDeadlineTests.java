package io.infergate.gateway.route;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.test.scheduler.VirtualTimeScheduler;

import static org.assertj.core.api.Assertions.assertThat;

class StreamIdleDeadlineTests {

	private static final Duration LIMIT = Duration.ofSeconds(1);

	private final VirtualTimeScheduler time = VirtualTimeScheduler.create();

	private final StreamIdleDeadline deadline = new StreamIdleDeadline(LIMIT, time,
			() -> time.now(TimeUnit.NANOSECONDS));

	private final AtomicBoolean expired = new AtomicBoolean();

	private Disposable subscription;

	@AfterEach
	void dispose() {
		subscription.dispose();
		time.dispose();
	}

	@Test
	void aStreamSilentFromItsStartExpiresAfterTheLimit() {
		subscribe();

		time.advanceTimeBy(LIMIT.minusMillis(1));
		assertThat(expired).isFalse();
		time.advanceTimeBy(Duration.ofMillis(1));
		assertThat(expired).isTrue();
		assertThat(deadline.expired()).isTrue();
	}

	@Test
	void eventsWithinTheLimitKeepItAliveAndTheLimitCountsFromTheLastOne() {
		subscribe();
		for (int i = 0; i < 10; i++) {
			time.advanceTimeBy(Duration.ofMillis(900));
			deadline.touch();
		}
		assertThat(expired).isFalse();

		time.advanceTimeBy(Duration.ofMillis(999));
		assertThat(expired).isFalse();
		time.advanceTimeBy(Duration.ofMillis(1));
		assertThat(expired).isTrue();
	}

	@Test
	void manyEventsBetweenTwoChecksLeaveOneCheckPending() {
		subscribe();
		for (int i = 0; i < 1_000; i++) {
			time.advanceTimeBy(Duration.ofMillis(1));
			deadline.touch();
		}
		assertThat(time.getScheduledTaskCount()).isEqualTo(2); // the first check, and the one it left for the rest
	}

	@Test
	void aFinishedStreamNeverExpires() {
		subscribe();
		time.advanceTimeBy(Duration.ofMillis(500));
		deadline.finish();
		time.advanceTimeBy(Duration.ofSeconds(10));

		assertThat(expired).isFalse();
		assertThat(deadline.expired()).isFalse();
	}

	private void subscribe() {
		subscription = deadline.expiry().doOnSuccess((done) -> expired.set(true)).subscribe();
	}
}
