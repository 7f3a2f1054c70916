package io.infergate.admin.autoconfigure;

import java.time.Clock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import io.infergate.admin.runtime.RuntimeChanges;
import io.infergate.admin.security.AdminCredentials;
import io.infergate.admin.security.ManagementSecurityProperties;
import io.infergate.admin.snapshot.EndpointHistory;
import io.infergate.admin.snapshot.HistorySampler;
import io.infergate.admin.snapshot.SnapshotAssembler;
import io.infergate.admin.snapshot.SnapshotFeed;
import io.infergate.admin.source.FlowControlQueueSource;
import io.infergate.admin.source.BudgetSource;
import io.infergate.admin.source.CircuitStateSource;
import io.infergate.admin.source.ConfigurationSource;
import io.infergate.admin.source.ModelCatalogSource;
import io.infergate.admin.source.TenantUsageSource;
import io.infergate.admin.web.DashboardJson;
import io.infergate.admin.whatif.WhatIf;
import io.infergate.routing.autoconfigure.RoutingAutoConfiguration;
import io.infergate.routing.engine.LiveConfiguration;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.decision.DecisionRecorder;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.tokenization.RequestTokenizer;
import io.infergate.routing.tokenization.Tokenizers;

/**
 * The dashboard's state, in the application's own context so it outlives any one request: the endpoints' history
 * and its sampler, the snapshot assembler, the shared live feed, the what-if replay, and the management port's
 * credentials. Its web routes and the management port's security filter chains are added to the management
 * server's context by {@link DashboardManagementContextConfiguration} and
 * {@link io.infergate.admin.security.ManagementSecurityConfiguration}.
 */
@AutoConfiguration(after = RoutingAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@EnableConfigurationProperties({ DashboardProperties.class, ManagementSecurityProperties.class })
public class DashboardAutoConfiguration {

	private static final Log logger = LogFactory.getLog(DashboardAutoConfiguration.class);

	@Bean
	AdminCredentials adminCredentials(ManagementSecurityProperties properties) {
		return AdminCredentials.of(properties, (password) -> logger.warn("Management port (actuator and dashboard): "
				+ "user '" + properties.admin().username() + "', generated password: " + password
				+ " . It changes at every start; to choose your own, set infergate.management.admin.password-hash "
				+ "to the output of 'java -jar gateway-app.jar hash-password'."));
	}

	@Bean
	EndpointHistory endpointHistory(EndpointRegistry registry, DecisionRecorder decisions, Clock clock) {
		return new EndpointHistory(registry, decisions, clock);
	}

	@Bean
	HistorySampler endpointHistorySampler(EndpointHistory history) {
		return new HistorySampler(history, Schedulers.parallel());
	}

	@Bean
	SnapshotAssembler dashboardSnapshotAssembler(EndpointRegistry registry, SchedulingProfiles profiles,
			DecisionRecorder decisions, SaturationDetector saturation, EndpointHistory history, Clock clock,
			ObjectProvider<ModelCatalogSource> models, ObjectProvider<TenantUsageSource> tenants,
			ObjectProvider<FlowControlQueueSource> flowControl, ObjectProvider<CircuitStateSource> circuits,
			ObjectProvider<LiveConfiguration> configuration, ObjectProvider<BudgetSource> budgets,
			ObjectProvider<Tokenizers> tokenizers) {
		LiveConfiguration live = configuration.getIfAvailable();
		ConfigurationSource version = (live != null) ? live::status : null;
		Tokenizers poolTokenizers = tokenizers.getIfAvailable(() -> Tokenizers.NONE);
		SnapshotAssembler.TokenizerSource tokenizerSource = (pool) -> {
			RequestTokenizer tokenizer = poolTokenizers.forPool(pool);
			return (tokenizer != null) ? tokenizer.describe() : null;
		};
		return new SnapshotAssembler(registry, profiles, decisions, saturation, history, clock,
				new SnapshotAssembler.Sources(models.getIfAvailable(), tenants.getIfAvailable(),
						flowControl.getIfAvailable(), circuits.getIfAvailable(), version, budgets.getIfAvailable(),
						tokenizerSource));
	}

	@Bean
	DashboardJson dashboardJson() {
		return new DashboardJson();
	}

	@Bean
	SnapshotFeed dashboardSnapshotFeed(SnapshotAssembler snapshots, DashboardJson json,
			DashboardProperties properties) {
		return new SnapshotFeed(() -> json.write(snapshots.next()), properties.tickInterval(),
				Schedulers.parallel());
	}

	@Bean
	WhatIf dashboardWhatIf(SchedulingProfiles profiles, DecisionRecorder decisions) {
		return new WhatIf(profiles, decisions);
	}

	@Bean
	RuntimeChanges dashboardRuntimeChanges(SchedulingProfiles profiles, ManagementSecurityProperties security,
			Clock clock) {
		return new RuntimeChanges(profiles, security.admin().allowRuntimeChanges(), clock);
	}
}
