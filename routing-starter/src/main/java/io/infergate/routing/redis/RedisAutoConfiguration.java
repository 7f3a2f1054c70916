package io.infergate.routing.redis;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;

/**
 * {@code infergate.redis.*}, validated in every application, and the {@link SharedRedisClient} that the Redis limits
 * store and dispatch sharing open their connections on. The client is created only when one of them asks for it,
 * and closed after them.
 */
@AutoConfiguration
@EnableConfigurationProperties(RedisProperties.class)
public class RedisAutoConfiguration {

	@Bean(destroyMethod = "close")
	@Lazy
	SharedRedisClient sharedRedisClient(RedisProperties properties) {
		return new SharedRedisClient(properties.url());
	}
}
