package io.infergate.routing.admission;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LimitsCallTest {

	private final Bucket key = new Bucket(LimitScope.KEY, "k", 100, 1_000, 4);

	private final Bucket tenant = new Bucket(LimitScope.TENANT, "t", 0, 5_000, 0);

	private Reservation admitted(String leaseId, long tokens) {
		return new Reservation(Reservation.Status.ADMITTED, null, List.of(key, tenant), tokens, leaseId, null, null,
				null);
	}

	@Test
	void sumsEachTokenCountersCorrectionsAndGroupsEachMaxParallelCountersLeases() {
		LimitsCall call = new LimitsCall();

		call.addRelease("p:", admitted("a", 300), 120);
		call.addRelease("p:", admitted("b", 200), 260);

		assertThat(call.releases()).isEqualTo(2);
		assertThat(call.keys()).containsExactly("p:tpm:key:k", "p:max-parallel:key:k", "p:tpm:tenant:t");
		assertThat(call.args(600, 7)).containsExactly("600", "7", "tpm", "1000", "1", "-120", "max-parallel", "4", "2",
				"a", "b", "tpm", "5000", "1", "-120");
	}

	@Test
	void correctsByAtMostTheWholeBucketAsTheReservationHeldAtMostThat() {
		LimitsCall call = new LimitsCall();

		// reserved 3,000 tokens: the key's bucket of 1,000 held 1,000 of them, the tenant's 3,000
		call.addRelease("p:", admitted("a", 3_000), 0);

		assertThat(call.args(600, 7)).containsSubsequence("tpm", "1000", "1", "-1000", "tpm", "5000", "1", "-3000");
	}

	@Test
	void requestsNameEachCounterOnceAndListTheIndexesOfTheirsAfterTheReleases() {
		LimitsCall call = new LimitsCall();
		call.addRelease("p:", admitted("a", 10), 10);
		CompletableFuture<List<Long>> first = new CompletableFuture<>();
		CompletableFuture<List<Long>> second = new CompletableFuture<>();

		call.addRequest("p:", List.of(tenant), 50, "b", true, first);
		call.addRequest("p:", List.of(key), 20, "-", false, second);

		assertThat(call.requests()).isEqualTo(2);
		// a release that used what it reserved corrects nothing
		assertThat(call.keys()).containsExactly("p:tpm:key:k", "p:max-parallel:key:k", "p:tpm:tenant:t",
				"p:rpm:key:k");
		assertThat(call.args(600, 7)).containsExactly("600", "7", "tpm", "1000", "0", "max-parallel", "4", "1", "a",
				"tpm", "5000", "0", "rpm", "100", "0", "50", "b", "1", "1", "3", "20", "-", "0", "3", "4", "1", "2");
	}

	@Test
	void eachRequestGetsItsSliceOfTheReplyAndAllFailWhenTheReplyIsNotWhole() {
		LimitsCall call = new LimitsCall();
		CompletableFuture<List<Long>> first = new CompletableFuture<>();
		CompletableFuture<List<Long>> second = new CompletableFuture<>();
		call.addRequest("p:", List.of(tenant), 50, "a", true, first);
		call.addRequest("p:", List.of(key), 20, "b", true, second);

		call.complete(List.of(1L, 1L, 2L, 3L, 4L, 5L, 6L, 0L, 1L, 1L, 1L, 1L, 1L, 1L, 2L, 2L, 2L, 2L, 2L, 2L, 3L, 3L,
				3L, 3L, 3L, 3L));

		assertThat(first.join()).containsExactly(1L, 1L, 2L, 3L, 4L, 5L, 6L);
		assertThat(second.join()).hasSize(19).startsWith(0L, 1L).endsWith(3L);

		LimitsCall cut = new LimitsCall();
		CompletableFuture<List<Long>> third = new CompletableFuture<>();
		cut.addRequest("p:", List.of(key), 20, "c", true, third);
		cut.complete(List.of(1L));
		assertThat(third).isCompletedExceptionally();
	}

	@Test
	void anEmptyCallSendsNothing() {
		assertThat(new LimitsCall().isEmpty()).isTrue();
	}
}
