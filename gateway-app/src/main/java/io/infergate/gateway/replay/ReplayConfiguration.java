package io.infergate.gateway.replay;

import java.time.Clock;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.infergate.admin.autoconfigure.DashboardProperties;
import io.infergate.gateway.capture.CaptureProperties;
import io.infergate.routing.scheduling.config.SchedulingProfiles;

/**
 * The dashboard's Replay view, when the traffic capture is on ({@code infergate.capture.enabled=true}): it replays
 * the capture's files, bounded by {@code infergate.management.dashboard.replay.*}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(CaptureProperties.PREFIX + ".enabled")
public class ReplayConfiguration {

	@Bean
	CaptureReplayRuns captureReplayRuns(CaptureProperties capture, DashboardProperties dashboard,
			SchedulingProfiles profiles, Environment environment) {
		return new CaptureReplayRuns(capture.directory(), dashboard.replay(), profiles, environment,
				Clock.systemUTC());
	}
}
