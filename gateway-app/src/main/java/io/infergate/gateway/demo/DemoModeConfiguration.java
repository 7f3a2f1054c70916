package io.infergate.gateway.demo;

import java.util.List;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.infergate.routing.pool.EndpointRegistry;

/** Starts the demo pods when demo mode configured the pool. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = DemoModeEnvironmentPostProcessor.ACTIVE_PROPERTY, havingValue = "true")
public class DemoModeConfiguration {

	@Bean
	DemoPods demoPods(@Value("${" + DemoModeEnvironmentPostProcessor.PORTS_PROPERTY + "}") List<Integer> ports,
			EndpointRegistry registry) {
		return new DemoPods(ports, registry);
	}
}
