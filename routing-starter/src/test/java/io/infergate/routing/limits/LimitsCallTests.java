package io.infergate.routing.limits;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LimitsCallTests {

	private final Bucket key = new Bucket(LimitScope.KEY, "k", 100, 1_000, 4);

	private final Bucket tenant = new Bucket(LimitScope.TENANT, "t", 0, 5_000, 0);

	private Reservation admitted(String leaseId, long tokens) {
		return new Reservation(Reservation.Status.ADMITTED, null, List.of(key, tenant), tokens, leaseId, null, null,
				null, null);
	}

	/** Releases as the Redis store does with no allowance held: everything goes to Redis. */
	private static void release(LimitsCall call, Reservation reservation, long actualTokens) {
		new Allowances(0, 1, 1).release(call, "p:", reservation, actualTokens, 0);
	}

	@Test
	void sumsEachTokenCountersCorrectionsAndGroupsEachMaxParallelCountersLeases() {
		LimitsCall call = new LimitsCall();

		release(call, admitted("a", 300), 120);
		release(call, admitted("b", 200), 260);

		assertThat(call.releases()).isEqualTo(2);
		assertThat(call.keys()).containsExactly("p:tpm:key:k", "p:max-parallel:key:k", "p:tpm:tenant:t");
		assertThat(call.args(600, 7)).containsExactly("600", "7", "tpm", "1000", "1", "-120", "max-parallel", "4", "2",
				"a", "b", "tpm", "5000", "1", "-120");
	}

	@Test
	void correctsByAtMostTheWholeBucketAsTheReservationHeldAtMostThat() {
		LimitsCall call = new LimitsCall();

		// reserved 3,000 tokens: the key's bucket of 1,000 held 1,000 of them, the tenant's 3,000
		release(call, admitted("a", 3_000), 0);

		assertThat(call.args(600, 7)).containsSubsequence("tpm", "1000", "1", "-1000", "tpm", "5000", "1", "-3000");
	}

	@Test
	void requestsNameEachCounterOnceAndListTheIndexesOfTheirsAfterTheReleases() {
		LimitsCall call = new LimitsCall();
		release(call, admitted("a", 10), 10);
		CompletableFuture<List<Long>> first = new CompletableFuture<>();
		CompletableFuture<List<Long>> second = new CompletableFuture<>();

		call.addRequest("p:", List.of(tenant), 50, "b", true, null, first);
		call.addRequest("p:", List.of(key), 20, "-", false, new long[] { 0, 10, 2 }, second);

		assertThat(call.requests()).isEqualTo(2);
		assertThat(call.releases()).isEqualTo(1);
		// a release that used what it reserved corrects no token counter
		assertThat(call.keys()).containsExactly("p:max-parallel:key:k", "p:tpm:tenant:t", "p:rpm:key:k",
				"p:tpm:key:k");
		// each request: tokens, lease, commit, n, its n counter indexes, then what it asks for each
		assertThat(call.args(600, 7)).containsExactly("600", "7", "max-parallel", "4", "1", "a", "tpm", "5000", "0",
				"rpm", "100", "0", "tpm", "1000", "0", "50", "b", "1", "1", "2", "0", "20", "-", "0", "3", "3", "4",
				"1", "0", "10", "2");
	}

	@Test
	void eachRequestGetsItsSliceOfTheReplyAndAllFailWhenTheReplyIsNotWhole() {
		LimitsCall call = new LimitsCall();
		CompletableFuture<List<Long>> first = new CompletableFuture<>();
		CompletableFuture<List<Long>> second = new CompletableFuture<>();
		call.addRequest("p:", List.of(tenant), 50, "a", true, null, first);
		call.addRequest("p:", List.of(key), 20, "b", true, null, second);

		call.complete(List.of(1L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 0L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 2L, 2L, 2L, 2L, 2L, 2L,
				2L, 3L, 3L, 3L, 3L, 3L, 3L, 3L));

		assertThat(first.join()).containsExactly(1L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
		assertThat(second.join()).hasSize(22).startsWith(0L, 1L).endsWith(3L);

		LimitsCall cut = new LimitsCall();
		CompletableFuture<List<Long>> third = new CompletableFuture<>();
		cut.addRequest("p:", List.of(key), 20, "c", true, null, third);
		cut.complete(List.of(1L));
		assertThat(third).isCompletedExceptionally();
	}

	@Test
	void anEmptyCallSendsNothing() {
		assertThat(new LimitsCall().isEmpty()).isTrue();
	}
}
