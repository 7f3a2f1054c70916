package io.infergate.admin.autoconfigure;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The dashboard, {@code infergate.management.dashboard.*}.
 *
 * @param tickInterval Time between two snapshots sent to the open dashboards; 50ms..10s.
 */
@Validated
@ConfigurationProperties("infergate.management.dashboard")
public record DashboardProperties(
		@DefaultValue("500ms") @NotNull @DurationMin(millis = 50) @DurationMax(seconds = 10) Duration tickInterval) {
}
