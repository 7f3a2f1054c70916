package io.infergate.routing.admission;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReleaseBatchTest {

	private final Bucket key = new Bucket(LimitScope.KEY, "k", 100, 1_000, 4);

	private final Bucket tenant = new Bucket(LimitScope.TENANT, "t", 0, 5_000, 0);

	private Reservation admitted(String leaseId, long tokens) {
		return new Reservation(Reservation.Status.ADMITTED, null, List.of(key, tenant), tokens, leaseId, null, null,
				null);
	}

	@Test
	void sumsEachTokenCountersCorrectionsAndGroupsEachMaxParallelCountersLeases() {
		ReleaseBatch batch = new ReleaseBatch();

		batch.add("p:", admitted("a", 300), 120);
		batch.add("p:", admitted("b", 200), 260);

		assertThat(batch.releases()).isEqualTo(2);
		assertThat(batch.keys()).containsExactly("p:tpm:key:k", "p:tpm:tenant:t", "p:max-parallel:key:k");
		assertThat(batch.args()).containsExactly("tpm", "1000", "-120", "tpm", "5000", "-120", "max-parallel", "2",
				"a", "b");
	}

	@Test
	void correctsByAtMostTheWholeBucketAsTheReservationHeldAtMostThat() {
		ReleaseBatch batch = new ReleaseBatch();

		// reserved 3,000 tokens: the key's bucket of 1,000 held 1,000 of them, the tenant's 3,000
		batch.add("p:", admitted("a", 3_000), 0);

		assertThat(batch.args()).startsWith("tpm", "1000", "-1000", "tpm", "5000", "-3000");
	}

	@Test
	void anEmptyBatchSendsNothing() {
		assertThat(new ReleaseBatch().isEmpty()).isTrue();
	}
}
