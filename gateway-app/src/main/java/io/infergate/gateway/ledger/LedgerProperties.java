package io.infergate.gateway.ledger;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The usage ledger, {@code infergate.usage.ledger}: usage per key × model × minute in the database of
 * {@code spring.datasource.*} (by default an embedded file database under {@code ./data/}).
 *
 * @param enabled Whether usage is written to the database at all.
 * @param flushInterval How often this replica writes what it has summed since: one batch per interval.
 * @param bufferRows Rows this replica keeps while the database cannot be written; beyond them the oldest batches are
 * dropped and counted (infergate.usage.ledger.rows.dropped).
 * @param queryTimeout How long one statement may take, writes and the usage API's reads alike.
 */
@ConfigurationProperties("infergate.usage.ledger")
public record LedgerProperties(@DefaultValue("true") boolean enabled, @DefaultValue("1s") Duration flushInterval,
		@DefaultValue("100000") int bufferRows, @DefaultValue("5s") Duration queryTimeout) {

	public LedgerProperties {
		if (flushInterval == null || flushInterval.isNegative() || flushInterval.isZero()) {
			throw new IllegalArgumentException(
					"infergate.usage.ledger.flush-interval: must be a positive duration, got " + flushInterval);
		}
		if (bufferRows < 1) {
			throw new IllegalArgumentException("infergate.usage.ledger.buffer-rows: must be 1 or more, got " + bufferRows);
		}
		if (queryTimeout == null || queryTimeout.toSeconds() < 1) {
			throw new IllegalArgumentException(
					"infergate.usage.ledger.query-timeout: must be 1s or more, got " + queryTimeout);
		}
	}
}
