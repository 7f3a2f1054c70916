package io.infergate.gateway.ledger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The ledger's tables, through Spring's JDBC support: its schema migrations (Flyway, migrations beside this class,
 * history in {@value #HISTORY_TABLE}, so the ledger can share a database with other schemas), one transaction per
 * batch, and the usage API's sums. The SQL is the subset H2 and PostgreSQL share.
 */
final class LedgerStore {

	static final String LOCATION = "classpath:io/infergate/gateway/ledger/migration";

	static final String HISTORY_TABLE = "infergate_ledger_schema_history";

	private final DataSource dataSource;

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	private volatile boolean migrated;

	LedgerStore(DataSource dataSource, Duration queryTimeout) {
		this.dataSource = dataSource;
		this.jdbc = new JdbcTemplate(dataSource);
		this.jdbc.setQueryTimeout((int) Math.max(1, queryTimeout.toSeconds()));
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		this.transactions.setTimeout((int) Math.max(1, queryTimeout.toSeconds()));
	}

	/** Brings the schema to the newest version, once per process; from an empty database or any earlier version. */
	void migrate() {
		if (migrated) {
			return;
		}
		synchronized (this) {
			if (!migrated) {
				flyway(null).migrate();
				migrated = true;
			}
		}
	}

	/** Flyway for the ledger's migrations, up to {@code target} ({@code null}: the newest). */
	Flyway flyway(String target) {
		var configuration = Flyway.configure()
			.dataSource(dataSource)
			.locations(LOCATION)
			.table(HISTORY_TABLE)
			.baselineOnMigrate(true)
			.baselineVersion("0");
		if (target != null) {
			configuration.target(target);
		}
		return configuration.load();
	}

	/**
	 * Writes {@code batch} in one transaction: its id first, then its rows. A batch already written (sent again after
	 * its commit went unacknowledged) adds nothing.
	 *
	 * @return false when the batch was already written
	 */
	boolean write(Batch batch, String replica, String currency, long nowMillis) {
		migrate();
		try {
			return Boolean.TRUE.equals(transactions.execute((status) -> {
				jdbc.update("INSERT INTO infergate_usage_batch (batch_id, replica, written_at, row_count) "
						+ "VALUES (?, ?, ?, ?)", batch.id(), replica, nowMillis, batch.rows().size());
				List<Object[]> rows = new ArrayList<>(batch.rows().size());
				for (UsageRow row : batch.rows()) {
					rows.add(new Object[] { batch.id(), row.minute(), row.tenant(), row.key(), row.model(),
							row.requests(), row.inputTokens(), row.cachedInputTokens(), row.outputTokens(),
							row.costNanos(), currency });
				}
				jdbc.batchUpdate("INSERT INTO infergate_usage (batch_id, epoch_minute, tenant, key_id, model, requests, "
						+ "input_tokens, cached_input_tokens, output_tokens, cost_nanos, currency) "
						+ "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows);
				return true;
			}));
		}
		catch (DuplicateKeyException alreadyWritten) {
			return false;
		}
	}

	/**
	 * The sums of the rows whose minute is in [{@code fromMinute}, {@code toMinute}), per the grouping asked
	 * ({@code bucketMinutes} 0: no time buckets).
	 */
	List<UsageRow> sums(long fromMinute, long toMinute, boolean tenant, boolean key, boolean model,
			long bucketMinutes) {
		migrate();
		List<String> columns = new ArrayList<>();
		if (bucketMinutes > 0) {
			columns.add("epoch_minute - MOD(epoch_minute, " + bucketMinutes + ")");
		}
		if (tenant) {
			columns.add("tenant");
		}
		if (key) {
			columns.add("key_id");
		}
		if (model) {
			columns.add("model");
		}
		String grouped = String.join(", ", columns);
		String sql = "SELECT " + (grouped.isEmpty() ? "" : grouped + ", ") + "SUM(requests), SUM(input_tokens), "
				+ "SUM(cached_input_tokens), SUM(output_tokens), SUM(cost_nanos) FROM infergate_usage "
				+ "WHERE epoch_minute >= ? AND epoch_minute < ?" + (grouped.isEmpty() ? "" : " GROUP BY " + grouped);
		return jdbc.query(sql, (result, index) -> {
			int at = 1;
			long minute = (bucketMinutes > 0) ? result.getLong(at++) : -1;
			String t = tenant ? result.getString(at++) : null;
			String k = key ? result.getString(at++) : null;
			String m = model ? result.getString(at++) : null;
			return new UsageRow(minute, t, k, m, result.getLong(at), result.getLong(at + 1), result.getLong(at + 2),
					result.getLong(at + 3), result.getLong(at + 4));
		}, fromMinute, toMinute);
	}

	/**
	 * A batch of rows, named so that writing it twice adds it once.
	 *
	 * @param id the replica's id and the batch's sequence number
	 * @param rows its rows, one per minute, tenant, key and model
	 */
	record Batch(String id, List<UsageRow> rows) {
	}
}
