package io.infergate.routing.loadbalancer;

import org.springframework.cloud.loadbalancer.core.ReactorServiceInstanceLoadBalancer;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.infergate.routing.discovery.PoolInstanceSuppliers;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.pool.EndpointRegistry;

/**
 * The configuration of every load-balancer child context (one per pool, created on the pool's first request):
 * Infergate's balancer, and the registry's endpoints as the instance list.
 */
@Configuration(proxyBeanMethods = false)
public class InfergateLoadBalancerClientConfiguration {

	@Bean
	ReactorServiceInstanceLoadBalancer infergateLoadBalancer(Environment environment, InferenceEngine engine) {
		return new InfergateLoadBalancer(poolName(environment), engine);
	}

	@Bean
	ServiceInstanceListSupplier infergateServiceInstanceListSupplier(Environment environment,
			EndpointRegistry registry) {
		return PoolInstanceSuppliers.fromRegistry(poolName(environment), registry);
	}

	private static String poolName(Environment environment) {
		return environment.getRequiredProperty(LoadBalancerClientFactory.PROPERTY_NAME);
	}
}
