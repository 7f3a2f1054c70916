package io.infergate.routing.prefix;

import io.infergate.routing.pool.EndpointRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The one {@link PrefixIndex} that every plugin reading it shares, with its {@code infergate.scheduling.prefix.*}
 * properties. Imported by those plugins ({@code @Import} on the plugin class), so any context that scans the plugin
 * packages has the index, with or without the routing auto-configuration. When an {@link EndpointRegistry} is
 * present, the index hears of removed endpoints and purges them.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PrefixIndexProperties.class)
public class PrefixIndexConfiguration {

	@Bean
	public PrefixIndex prefixIndex(PrefixIndexProperties properties) {
		return new PrefixIndex(properties);
	}

	@Bean
	public SmartInitializingSingleton prefixIndexPurgeOnEndpointRemoval(PrefixIndex index,
			ObjectProvider<EndpointRegistry> registry) {
		return () -> registry.ifAvailable((endpoints) -> endpoints.addListener(index));
	}
}
