package io.infergate.routing.prefix;

import io.infergate.routing.pool.EndpointRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The one {@link EngineBlockIndex} that the {@code precise-prefix} scorer reads and the KV-event subscriptions feed,
 * with its {@code infergate.scheduling.engine-blocks.*} properties. Imported by both, so a context with either has
 * the index. When an {@link EndpointRegistry} is present, removed endpoints are purged.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(EngineBlockIndexProperties.class)
public class EngineBlockIndexConfiguration {

	@Bean
	public EngineBlockIndex engineBlockIndex(EngineBlockIndexProperties properties) {
		return new EngineBlockIndex(properties);
	}

	@Bean
	public SmartInitializingSingleton engineBlockIndexPurgeOnEndpointRemoval(EngineBlockIndex index,
			ObjectProvider<EndpointRegistry> registry) {
		return () -> registry.ifAvailable((endpoints) -> endpoints.addListener(index));
	}
}
