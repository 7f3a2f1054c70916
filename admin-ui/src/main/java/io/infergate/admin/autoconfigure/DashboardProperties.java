package io.infergate.admin.autoconfigure;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The dashboard, {@code infergate.management.dashboard.*}.
 *
 * @param tickInterval Time between two snapshots sent to the open dashboards; 50ms..10s.
 * @param replay The Replay view's runs over the traffic capture.
 */
@Validated
@ConfigurationProperties("infergate.management.dashboard")
public record DashboardProperties(
		@DefaultValue("500ms") @NotNull @DurationMin(millis = 50) @DurationMax(seconds = 10) Duration tickInterval,
		@DefaultValue @Valid @NotNull Replay replay) {

	/**
	 * The bounds of a Replay run: one run at a time, on one background thread.
	 *
	 * @param maxRequests Routed requests one replay run reads and replays at most; a window holding more fails the
	 * run. Bounds the run's memory.
	 * @param cpuShare Share of one CPU core a replay run's process uses at most (its JIT compiler and garbage
	 * collector included), greater than 0 and at most 1: after each slice of work it sleeps in proportion.
	 * @param maxHeap Heap of a replay run's process at most; a run that needs more fails and says so.
	 * @param yieldAbove Share of all the machine's processors' time that everything else may use before a replay
	 * run waits for it to drop, from 0 to 1 (1: never waits); read from Linux's {@code /proc/stat}.
	 */
	public record Replay(@DefaultValue("200000") @Positive int maxRequests,
			@DefaultValue("0.5") @DecimalMin(value = "0", inclusive = false) @DecimalMax("1") double cpuShare,
			@DefaultValue("1GB") @NotNull DataSize maxHeap,
			@DefaultValue("0.5") @DecimalMin("0") @DecimalMax("1") double yieldAbove) {
	}
}
