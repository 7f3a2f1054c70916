package io.infergate.routing.replica;

import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.redis.RedisAutoConfiguration;
import io.infergate.routing.redis.SharedRedisClient;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;
import io.infergate.routing.scheduling.config.SchedulingProfiles;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Shared dispatch memory ({@link DispatchSharing}) when {@code infergate.scheduling.dispatch-sharing.transport} is
 * {@code redis}, over the gateway's one Redis ({@code infergate.redis.url}). The properties are bound and validated in every application, so a misspelt transport stops startup
 * instead of silently sharing nothing.
 */
@AutoConfiguration(after = { SchedulingAutoConfiguration.class, RedisAutoConfiguration.class },
		afterName = "io.infergate.routing.autoconfigure.RoutingAutoConfiguration")
@EnableConfigurationProperties(DispatchSharingProperties.class)
public class DispatchSharingAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "infergate.scheduling.dispatch-sharing.transport", havingValue = "redis")
	static class RedisSharing {

		@Bean(destroyMethod = "close")
		DispatchChannel redisDispatchChannel(DispatchSharingProperties properties, SharedRedisClient redis) {
			return new RedisDispatchChannel(redis, properties.channel()).start();
		}

		@Bean
		DispatchSharing dispatchSharing(PrefixIndex index, DispatchChannel channel,
				ObjectProvider<EndpointRegistry> registry, ObjectProvider<SchedulingProfiles> profiles) {
			DispatchSharing sharing = new DispatchSharing(index, channel, registry.getIfAvailable());
			profiles.ifAvailable(sharing::withSessionsOf);
			return sharing.start();
		}
	}
}
