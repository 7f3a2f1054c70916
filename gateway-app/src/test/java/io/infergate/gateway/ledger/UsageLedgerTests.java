package io.infergate.gateway.ledger;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.infergate.gateway.support.PostgresServer;
import io.infergate.routing.limits.TokenUsage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ledger's writer against a real PostgreSQL that stops mid-run: usage waits in memory within its bound and is all
 * written once the database is back, none of it twice; beyond the bound the oldest batches are dropped and counted.
 */
class UsageLedgerTests {

	static PostgresServer postgres;

	final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@BeforeAll
	static void start() {
		postgres = new PostgresServer();
	}

	@AfterAll
	static void stop() {
		postgres.close();
	}

	private static HikariDataSource dataSource(String url) {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl(url);
		dataSource.setUsername(PostgresServer.USER);
		dataSource.setPassword(PostgresServer.PASSWORD);
		dataSource.setConnectionTimeout(1000);
		dataSource.setInitializationFailTimeout(-1);
		return dataSource;
	}

	private static void requests(UsageLedger ledger, int count, String key) {
		for (int i = 0; i < count; i++) {
			ledger.record("tenant", key, "llama", true, new TokenUsage(100, 10, true, 40), 1_500);
		}
	}

	@Test
	void theDatabaseStoppedMidRunLosesNoUsageWithinTheBufferAndNothingIsCountedTwice() throws Exception {
		try (HikariDataSource dataSource = dataSource(postgres.createDatabase("outage"))) {
			LedgerStore store = new LedgerStore(dataSource, Duration.ofSeconds(2));
			UsageLedger ledger = new UsageLedger(store, Clock.systemUTC(), Duration.ofMillis(100), 10_000, "USD",
					registry);
			ledger.start();
			try {
				requests(ledger, 100, "before");
				await().atMost(Duration.ofSeconds(10)).until(() -> ledger.unwritten().isEmpty());

				postgres.stop();
				for (int i = 0; i < 20; i++) {
					requests(ledger, 10, "during-" + i);
					Thread.sleep(50);
				}
				await().atMost(Duration.ofSeconds(10))
					.until(() -> registry.get("infergate.usage.ledger.batches").tag("outcome", "failed").counter()
						.count() >= 2);
				assertThat(ledger.unwritten()).isNotEmpty();

				postgres.restart();
				requests(ledger, 50, "after");
				await().atMost(Duration.ofSeconds(30)).until(() -> ledger.unwritten().isEmpty());
			}
			finally {
				ledger.stop();
			}

			List<UsageRow> total = store.sums(0, Long.MAX_VALUE / 2, false, false, false, 0);
			assertThat(total).containsExactly(new UsageRow(-1, null, null, null, 350, 35_000, 14_000, 3_500,
					350 * 1_500L));
			assertThat(registry.get("infergate.usage.ledger.rows.dropped").counter().count()).isZero();
		}
	}

	@Test
	void beyondItsBufferTheLedgerDropsTheOldestBatchesAndCountsTheirRows() {
		try (HikariDataSource unreachable = dataSource("jdbc:postgresql://127.0.0.1:1/nothing")) {
			LedgerStore store = new LedgerStore(unreachable, Duration.ofSeconds(1));
			UsageLedger ledger = new UsageLedger(store, Clock.systemUTC(), Duration.ofHours(1), 5, "USD", registry);
			for (int batch = 0; batch < 4; batch++) {
				for (int key = 0; key < 3; key++) {
					requests(ledger, 1, "batch-" + batch + "-key-" + key);
				}
				ledger.flush();
			}

			assertThat(registry.get("infergate.usage.ledger.rows.dropped").counter().count()).isEqualTo(9);
			assertThat(ledger.unwritten()).extracting(UsageRow::key)
				.containsExactlyInAnyOrder("batch-3-key-0", "batch-3-key-1", "batch-3-key-2");
			assertThat(registry.get("infergate.usage.ledger.batches").tag("outcome", "failed").counter().count())
				.isEqualTo(4);
		}
	}
}
