package io.infergate.routing.replica;

import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/**
 * Shared dispatch memory ({@link DispatchSharing}) when {@code infergate.scheduling.dispatch-sharing.transport} is
 * {@code redis}. The properties are bound and validated in every application, so a misspelt transport stops startup
 * instead of silently sharing nothing.
 */
@AutoConfiguration(after = SchedulingAutoConfiguration.class,
		afterName = "io.infergate.routing.autoconfigure.RoutingAutoConfiguration")
@EnableConfigurationProperties(DispatchSharingProperties.class)
public class DispatchSharingAutoConfiguration {

	static final String LETTUCE = "io.lettuce.core.RedisClient";

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "infergate.scheduling.dispatch-sharing.transport", havingValue = "redis")
	static class RedisSharing {

		@Bean(destroyMethod = "close")
		DispatchChannel redisDispatchChannel(DispatchSharingProperties properties) {
			if (!ClassUtils.isPresent(LETTUCE, DispatchSharingAutoConfiguration.class.getClassLoader())) {
				throw new IllegalStateException("infergate.scheduling.dispatch-sharing.transport=redis needs the Redis "
						+ "client io.lettuce:lettuce-core on the class path");
			}
			return new RedisDispatchChannel(properties.redisUrl(), properties.channel()).start();
		}

		@Bean
		DispatchSharing dispatchSharing(PrefixIndex index, DispatchChannel channel,
				ObjectProvider<EndpointRegistry> registry) {
			return new DispatchSharing(index, channel, registry.getIfAvailable()).start();
		}
	}
}
