package io.infergate.admin.autoconfigure;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** The dashboard, {@code infergate.management.dashboard.*}. */
@Validated
@ConfigurationProperties("infergate.management.dashboard")
public class DashboardProperties {

	/** Time between two snapshots sent to the open dashboards; 50ms..10s. */
	@NotNull
	@DurationMin(millis = 50)
	@DurationMax(seconds = 10)
	private Duration tickInterval = Duration.ofMillis(500);

	public Duration getTickInterval() {
		return tickInterval;
	}

	public void setTickInterval(Duration tickInterval) {
		this.tickInterval = tickInterval;
	}
}
