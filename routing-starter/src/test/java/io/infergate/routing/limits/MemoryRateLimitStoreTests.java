package io.infergate.routing.limits;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The GCRA limits of {@link Gcra} as the memory store runs them, on a clock the test moves. */
class MemoryRateLimitStoreTests {

	private final AtomicLong nowMicros = new AtomicLong(1_000_000_000L);

	private final MemoryRateLimitStore store = new MemoryRateLimitStore(nowMicros::get, Duration.ofSeconds(1));

	private static Bucket key(long rpm, long tpm, int maxParallel) {
		return new Bucket(LimitScope.KEY, "team-a", rpm, tpm, maxParallel);
	}

	private void advanceMillis(long millis) {
		nowMicros.addAndGet(millis * 1000);
	}

	@Test
	void anRpmLimitOfNAdmitsABurstOfNThenOneEverySixtyOverNSeconds() {
		List<Bucket> buckets = List.of(key(30, 0, 0));
		for (int i = 0; i < 30; i++) {
			assertThat(store.reserveNow(buckets, 1).admitted()).as("request %d", i + 1).isTrue();
		}

		Reservation refused = store.reserveNow(buckets, 1);

		assertThat(refused.admitted()).isFalse();
		assertThat(refused.denied().kind()).isEqualTo(LimitKind.RPM);
		// 30 per minute refill one every 2 s
		assertThat(refused.denied().retryAfterMicros()).isEqualTo(2_000_000);
		assertThat(refused.requests().remaining()).isZero();
		advanceMillis(1999);
		assertThat(store.reserveNow(buckets, 1).admitted()).isFalse();
		advanceMillis(1);
		assertThat(store.reserveNow(buckets, 1).admitted()).isTrue();
	}

	@Test
	void reportsRemainingAndTheTimeUntilTheBucketIsFullAgain() {
		List<Bucket> buckets = List.of(key(60, 0, 0));
		store.reserveNow(buckets, 1);

		Reservation second = store.reserveNow(buckets, 1);

		assertThat(second.requests().limit()).isEqualTo(60);
		assertThat(second.requests().remaining()).isEqualTo(58);
		assertThat(second.requests().resetMicros()).isEqualTo(2_000_000);
	}

	@Test
	void aTokenLimitWaitsUntilTheReservedTokensFitAndReportsUsedAndRequested() {
		List<Bucket> buckets = List.of(key(0, 6000, 0));
		assertThat(store.reserveNow(buckets, 5000).admitted()).isTrue();

		Reservation refused = store.reserveNow(buckets, 2000);

		assertThat(refused.admitted()).isFalse();
		assertThat(refused.denied().kind()).isEqualTo(LimitKind.TPM);
		assertThat(refused.denied().used()).isEqualTo(5000);
		assertThat(refused.denied().requested()).isEqualTo(2000);
		// 1000 tokens are missing; 6000 per minute refill 100 per second
		assertThat(refused.denied().retryAfterMicros()).isEqualTo(10_000_000);
	}

	@Test
	void releasingWithTheRealUsageRefundsWhatWasReservedButNotUsed() {
		List<Bucket> buckets = List.of(key(0, 6000, 0));
		Reservation first = store.reserveNow(buckets, 5000);

		first.release(300);

		Reservation second = store.reserveNow(buckets, 5000);
		assertThat(second.admitted()).isTrue();
		assertThat(second.tokenLimit().remaining()).isEqualTo(700);
	}

	@Test
	void usingMoreThanReservedLeavesTheBucketInDebt() {
		List<Bucket> buckets = List.of(key(0, 6000, 0));
		store.reserveNow(buckets, 1000).release(9000);

		Reservation refused = store.reserveNow(buckets, 100);

		assertThat(refused.admitted()).isFalse();
		// 3000 tokens of debt plus the 100 asked: 31 s at 100 tokens per second
		assertThat(refused.denied().retryAfterMicros()).isEqualTo(31_000_000);
	}

	@Test
	void aRequestLargerThanTheTokenLimitIsAdmittedWhenTheBucketIsFull() {
		List<Bucket> buckets = List.of(key(0, 1000, 0));

		Reservation huge = store.reserveNow(buckets, 50_000);

		assertThat(huge.admitted()).isTrue();
		assertThat(huge.tokenLimit().remaining()).isZero();
	}

	@Test
	void maxParallelCountsRequestsUntilTheyAreReleased() {
		List<Bucket> buckets = List.of(key(0, 0, 2));
		Reservation first = store.reserveNow(buckets, 1);
		store.reserveNow(buckets, 1);

		Reservation third = store.reserveNow(buckets, 1);
		first.release(1);
		Reservation fourth = store.reserveNow(buckets, 1);

		assertThat(third.admitted()).isFalse();
		assertThat(third.denied().kind()).isEqualTo(LimitKind.MAX_PARALLEL);
		assertThat(third.denied().retryAfterMicros()).isEqualTo(1_000_000);
		assertThat(fourth.admitted()).isTrue();
	}

	@Test
	void aRefusalByOneBucketReservesNothingInTheOthers() {
		Bucket key = key(10, 0, 0);
		Bucket tenant = new Bucket(LimitScope.TENANT, "t", 1, 0, 0);
		store.reserveNow(List.of(tenant), 1);

		Reservation refused = store.reserveNow(List.of(key, tenant), 1);

		assertThat(refused.admitted()).isFalse();
		assertThat(refused.denied().bucket()).isEqualTo(tenant);
		assertThat(store.reserveNow(List.of(key), 1).requests().remaining()).isEqualTo(9);
	}

	@Test
	void theHeadersReportTheLimitWithTheFewestLeftAndARefusalTheLimitThatFreesLast() {
		Bucket key = key(100, 1000, 0);
		Bucket model = new Bucket(LimitScope.MODEL, "m", 10, 100_000, 0);
		store.reserveNow(List.of(key, model), 900);

		Reservation next = store.reserveNow(List.of(key, model), 50);
		Reservation refused = store.reserveNow(List.of(key, model), 500);

		assertThat(next.requests().bucket()).isEqualTo(model);
		assertThat(next.requests().remaining()).isEqualTo(8);
		assertThat(next.tokenLimit().bucket()).isEqualTo(key);
		assertThat(next.tokenLimit().remaining()).isEqualTo(50);
		assertThat(refused.denied().bucket()).isEqualTo(key);
		assertThat(refused.denied().kind()).isEqualTo(LimitKind.TPM);
	}
}
