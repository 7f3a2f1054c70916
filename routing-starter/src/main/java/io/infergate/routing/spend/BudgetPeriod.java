package io.infergate.routing.spend;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;

/**
 * The period a budget's spend is counted over: the calendar {@code day} or {@code month} in
 * {@code infergate.usage.budget-zone} (UTC unless set), or the last 24 hours ({@code rolling-24h}, counted by the
 * minute). A request counts in the period (and, for {@code rolling-24h}, the minute) it was admitted in, even when its
 * response ends in the next one.
 */
public enum BudgetPeriod {

	/** From midnight to midnight. */
	DAY("day"),

	/** From the first of the month at midnight to the first of the next. */
	MONTH("month"),

	/** The last 24 hours, by the minute: spend leaves the budget 24 hours after the minute it was admitted in. */
	ROLLING_24H("rolling-24h");

	/** Minutes a rolling budget counts. */
	public static final int ROLLING_MINUTES = 24 * 60;

	private final String configName;

	BudgetPeriod(String configName) {
		this.configName = configName;
	}

	public String configName() {
		return configName;
	}

	public boolean rolling() {
		return this == ROLLING_24H;
	}

	/**
	 * The calendar window {@code now} falls in: its id (part of the counter's name, so a new window starts from
	 * nothing), its start and its end. A rolling period has one window that never ends: its id is {@code r24}, its
	 * start 24 hours ago and its end {@code null}.
	 */
	public Window window(Instant now, ZoneId zone) {
		if (this == ROLLING_24H) {
			return new Window("r24", now.minus(ROLLING_MINUTES, ChronoUnit.MINUTES), null);
		}
		ZonedDateTime start = now.atZone(zone).truncatedTo(ChronoUnit.DAYS);
		if (this == MONTH) {
			start = start.withDayOfMonth(1);
		}
		ZonedDateTime end = (this == MONTH) ? start.plusMonths(1) : start.plusDays(1);
		String id = (this == MONTH) ? String.format("%04d-%02d", start.getYear(), start.getMonthValue())
				: start.toLocalDate().toString();
		return new Window(id, start.toInstant(), end.toInstant());
	}

	/** The minute {@code now} falls in, counted from the epoch: a rolling budget's slot. */
	public static long minute(Instant now) {
		return Math.floorDiv(now.getEpochSecond(), 60);
	}

	/**
	 * One period's window.
	 *
	 * @param id its name in the counter's key: {@code 2026-12-07}, {@code 2026-12}, or {@code r24}
	 * @param start when it began
	 * @param end when it ends and the budget resets; {@code null} for a rolling period
	 */
	public record Window(String id, Instant start, Instant end) {
	}
}
