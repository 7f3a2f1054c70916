package io.infergate.admin.autoconfigure;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.infergate.admin.replay.ReplayRuns;
import io.infergate.admin.runtime.RuntimeChanges;
import io.infergate.admin.snapshot.EndpointHistory;
import io.infergate.admin.snapshot.SnapshotAssembler;
import io.infergate.admin.snapshot.SnapshotFeed;
import io.infergate.admin.web.DashboardHandlers;
import io.infergate.admin.web.DashboardJson;
import io.infergate.admin.web.DashboardRoutes;
import io.infergate.admin.web.ReplayHandlers;
import io.infergate.admin.web.UsageHandlers;
import io.infergate.admin.source.UsageSource;
import io.infergate.admin.web.RuntimeChangeHandlers;
import io.infergate.admin.whatif.WhatIf;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.scheduling.config.SchedulingProfiles;

/**
 * The dashboard's routes, {@code /admin}, in the management server's context: served on the management port
 * only (or, when management shares the API's port, on that port).
 */
@ManagementContextConfiguration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
public class DashboardManagementContextConfiguration {

	@Bean
	RouterFunction<ServerResponse> infergateDashboardRoutes(SnapshotFeed feed, SnapshotAssembler snapshots,
			EndpointHistory history, WhatIf whatIf, SchedulingProfiles profiles, EndpointRegistry registry,
			DashboardProperties properties, DashboardJson json, RuntimeChanges changes,
			ObjectProvider<ReplayRuns> replayRuns, ObjectProvider<UsageSource> usage, ObjectProvider<Clock> clock) {
		ReplayRuns replay = replayRuns.getIfAvailable();
		return DashboardRoutes.of(new DashboardHandlers(feed, snapshots, history, whatIf, profiles, registry,
				properties.tickInterval(), json, replay != null), new RuntimeChangeHandlers(changes, json),
				new ReplayHandlers(replay, profiles, json),
				new UsageHandlers(usage.getIfAvailable(), json, clock.getIfAvailable(Clock::systemUTC)));
	}
}
