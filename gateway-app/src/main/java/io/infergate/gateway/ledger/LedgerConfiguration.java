package io.infergate.gateway.ledger;

import java.time.Clock;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.infergate.admin.source.BudgetSource;
import io.infergate.routing.spend.Costs;

/**
 * The usage ledger, on the application's {@link DataSource} ({@code spring.datasource.*}; by default the embedded
 * file database the gateway's defaults name, under {@code ./data/}). Nothing touches the database at startup: the
 * schema is migrated by the first write or query, so a database that is down delays the ledger, never the gateway.
 * {@code infergate.usage.ledger.enabled=false} turns it off: no bean here, and no connection is ever opened.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "infergate.usage.ledger.enabled", matchIfMissing = true)
public class LedgerConfiguration {

	private static final Log logger = LogFactory.getLog(LedgerConfiguration.class);

	@Bean
	LedgerStore ledgerStore(DataSource dataSource, LedgerProperties properties) {
		return new LedgerStore(dataSource, properties.queryTimeout());
	}

	@Bean
	UsageLedger usageLedger(LedgerStore store, LedgerProperties properties, Costs costs,
			ObjectProvider<MeterRegistry> registry, ObjectProvider<Clock> clock) {
		logger.info("Usage is written to the ledger every " + properties.flushInterval().toMillis() + " ms");
		return new UsageLedger(store, clock.getIfAvailable(Clock::systemUTC), properties.flushInterval(),
				properties.bufferRows(), costs.currency(), registry.getIfUnique(SimpleMeterRegistry::new));
	}

	@Bean
	LedgerUsageSource ledgerUsageSource(LedgerStore store, UsageLedger ledger, Costs costs,
			ObjectProvider<BudgetSource> budgets) {
		return new LedgerUsageSource(store, ledger, costs.currency(), budgets.getIfAvailable());
	}
}
