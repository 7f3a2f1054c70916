package io.infergate.gateway.ledger;

import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the ledger's tables do on every database it supports, each test on a database of its own: migrations from an
 * empty database and from the previous schema, a batch written twice counted once, and the usage API's sums.
 */
abstract class LedgerStoreContract {

	/** A new, empty database. */
	abstract DataSource emptyDatabase();

	static UsageRow row(long minute, String tenant, String key, String model, long requests, long costNanos) {
		return new UsageRow(minute, tenant, key, model, requests, 100 * requests, 40 * requests, 10 * requests,
				costNanos);
	}

	@Test
	void migratesAnEmptyDatabaseToTheNewestSchema() {
		DataSource database = emptyDatabase();
		LedgerStore store = new LedgerStore(database, Duration.ofSeconds(5));

		store.migrate();

		assertThat(store.flyway(null).info().current().getVersion().getVersion()).isEqualTo("2");
		assertThat(new JdbcTemplate(database).queryForObject("SELECT COUNT(*) FROM infergate_usage_batch", Long.class))
			.isZero();
	}

	@Test
	void migratesTheFirstSchemaWithItsRowsKeptAndTheirBatchesRecorded() {
		DataSource database = emptyDatabase();
		LedgerStore store = new LedgerStore(database, Duration.ofSeconds(5));
		store.flyway("1").migrate();
		JdbcTemplate jdbc = new JdbcTemplate(database);
		jdbc.update("INSERT INTO infergate_usage (batch_id, epoch_minute, tenant, key_id, model, requests, input_tokens, "
				+ "output_tokens, cost_nanos, currency) VALUES ('old-1', 29000000, 'a', 'k', 'm', 3, 300, 30, 900, 'USD')");

		store.migrate();

		assertThat(store.sums(0, Long.MAX_VALUE / 2, true, true, true, 0)).containsExactly(
				new UsageRow(-1, "a", "k", "m", 3, 300, 0, 30, 900));
		assertThat(jdbc.queryForObject("SELECT row_count FROM infergate_usage_batch WHERE batch_id = 'old-1'",
				Integer.class)).isEqualTo(1);
		assertThat(store.write(new LedgerStore.Batch("old-1", List.of(row(29000001, "a", "k", "m", 1, 1))), "r",
				"USD", 0)).as("a batch of the old schema is not written again").isFalse();
	}

	@Test
	void aBatchWrittenTwiceIsCountedOnce() {
		LedgerStore store = new LedgerStore(emptyDatabase(), Duration.ofSeconds(5));
		LedgerStore.Batch batch = new LedgerStore.Batch("replica-1",
				List.of(row(29000000, "a", "k", "m", 2, 5_000), row(29000001, "a", "k", "m", 1, 2_000)));

		assertThat(store.write(batch, "replica", "USD", 0)).isTrue();
		assertThat(store.write(batch, "replica", "USD", 0)).isFalse();

		assertThat(store.sums(0, Long.MAX_VALUE / 2, false, false, false, 0))
			.containsExactly(new UsageRow(-1, null, null, null, 3, 300, 120, 30, 7_000));
	}

	@Test
	void sumsPerGroupAndTimeBucketOverTheMinutesAsked() {
		LedgerStore store = new LedgerStore(emptyDatabase(), Duration.ofSeconds(5));
		long hour = 29_000_040; // an hour's first minute: 29,000,040 = 483,334 × 60
		store.write(new LedgerStore.Batch("b-1", List.of(row(hour, "a", "k1", "m", 1, 10), row(hour + 1, "a", "k2", "m", 2, 20),
				row(hour + 61, "b", "k3", "m", 4, 40), row(hour + 200, "b", "k3", "m", 8, 80))), "r", "USD", 0);

		assertThat(store.sums(hour, hour + 120, true, false, false, 0)).containsExactlyInAnyOrder(
				new UsageRow(-1, "a", null, null, 3, 300, 120, 30, 30), new UsageRow(-1, "b", null, null, 4, 400, 160, 40, 40));
		assertThat(store.sums(hour, hour + 300, false, false, true, 60)).containsExactlyInAnyOrder(
				new UsageRow(hour, null, null, "m", 3, 300, 120, 30, 30),
				new UsageRow(hour + 60, null, null, "m", 4, 400, 160, 40, 40),
				new UsageRow(hour + 180, null, null, "m", 8, 800, 320, 80, 80));
	}
}
