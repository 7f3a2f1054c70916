package io.infergate.gateway.ledger;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.dao.DataAccessException;

import io.infergate.admin.source.BudgetSource;
import io.infergate.admin.source.UsageSource;
import io.infergate.routing.spend.Budget;

/**
 * The usage API's answer: the database's sums and what this replica has not written yet, summed together per group.
 * Usage is kept per minute: a minute counts when it starts in [from, to).
 */
public final class LedgerUsageSource implements UsageSource {

	private final LedgerStore store;

	private final UsageLedger ledger;

	private final String currency;

	private final BudgetSource budgets;

	LedgerUsageSource(LedgerStore store, UsageLedger ledger, String currency, BudgetSource budgets) {
		this.store = store;
		this.ledger = ledger;
		this.currency = currency;
		this.budgets = budgets;
	}

	@Override
	public Usage usage(Query query) throws UnavailableException {
		long fromMinute = (query.from() != null) ? Math.floorDiv(query.from().getEpochSecond() + 59, 60)
				: Long.MIN_VALUE / 2;
		long toMinute = Math.floorDiv(query.to().getEpochSecond() + 59, 60);
		boolean tenant = query.groupBy().contains("tenant");
		boolean key = query.groupBy().contains("key");
		boolean model = query.groupBy().contains("model");
		long bucket = bucketMinutes(query.interval());
		List<UsageRow> stored;
		try {
			stored = store.sums(fromMinute, toMinute, tenant, key, model, bucket);
		}
		catch (DataAccessException | org.flywaydb.core.api.FlywayException ex) {
			throw new UnavailableException("The usage ledger's database cannot be read: " + rootMessage(ex), ex);
		}
		Map<UsageRow.Group, UsageRow> sums = new LinkedHashMap<>();
		for (UsageRow row : stored) {
			sums.merge(row.group(tenant, key, model, bucket), row, UsageRow::plus);
		}
		for (UsageRow row : ledger.unwritten()) {
			if (row.minute() >= fromMinute && row.minute() < toMinute) {
				UsageRow.Group group = row.group(tenant, key, model, bucket);
				sums.merge(group, row.in(group), UsageRow::plus);
			}
		}
		List<UsageRow> rows = new ArrayList<>(sums.values());
		rows.sort((bucket > 0) ? Comparator.comparingLong(UsageRow::minute)
			.thenComparing(Comparator.comparingLong(UsageRow::costNanos).reversed())
				: Comparator.comparingLong(UsageRow::costNanos).reversed()
					.thenComparing(Comparator.comparingLong(UsageRow::requests).reversed()));
		List<Row> answer = new ArrayList<>(rows.size());
		for (UsageRow row : rows) {
			answer.add(new Row((row.minute() >= 0) ? Instant.ofEpochSecond(row.minute() * 60).toString() : null,
					row.tenant(), row.key(), row.model(), row.requests(), row.inputTokens(), row.cachedInputTokens(),
					row.outputTokens(), Budget.toUnits(row.costNanos())));
		}
		return new Usage(currency, answer, (budgets != null) ? budgets.budgets() : List.of());
	}

	static long bucketMinutes(String interval) {
		if (interval == null) {
			return 0;
		}
		return switch (interval) {
			case "minute" -> 1;
			case "hour" -> 60;
			case "day" -> 1440;
			default -> throw new IllegalArgumentException("interval: one of minute, hour, day");
		};
	}

	private static String rootMessage(Throwable ex) {
		Throwable cause = ex;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return cause.getMessage();
	}
}
