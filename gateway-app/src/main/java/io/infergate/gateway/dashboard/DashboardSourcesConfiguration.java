package io.infergate.gateway.dashboard;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.circuit.EndpointCircuits;

/**
 * What the dashboard shows beside the pools: the models and their targets, each tenant's use of its limits, the
 * budgets, the flow-control queues and the endpoints' circuits. The dashboard reads each through its own source interface; these
 * adapt the engine's parts to them.
 */
@Configuration(proxyBeanMethods = false)
public class DashboardSourcesConfiguration {

	@Bean
	ModelCatalogDashboardSource modelCatalogDashboardSource(ModelCatalog catalog) {
		return new ModelCatalogDashboardSource(catalog);
	}

	@Bean
	TenantUsageDashboardSource tenantUsageDashboardSource(RateLimiter rateLimiter) {
		return new TenantUsageDashboardSource(rateLimiter);
	}

	@Bean
	BudgetDashboardSource budgetDashboardSource(RateLimiter rateLimiter) {
		return new BudgetDashboardSource(rateLimiter);
	}

	@Bean
	FlowControlDashboardSource flowControlDashboardSource(FlowController controller) {
		return new FlowControlDashboardSource(controller);
	}

	@Bean
	CircuitDashboardSource circuitDashboardSource(EndpointCircuits circuits) {
		return new CircuitDashboardSource(circuits);
	}

}
