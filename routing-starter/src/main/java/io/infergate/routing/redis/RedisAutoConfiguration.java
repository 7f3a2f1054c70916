package io.infergate.routing.redis;

import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;

/**
 * {@code infergate.redis.*}, validated in every application, and the {@link SharedRedisClient} that the Redis limits
 * store and dispatch sharing open their connections on. The URL is resolved at startup, where a deprecated Redis URL
 * is warned about ({@link RedisUrl}); the client is created only when one of them asks for it, and closed after them.
 */
@AutoConfiguration
@EnableConfigurationProperties(RedisProperties.class)
public class RedisAutoConfiguration {

	@Bean
	RedisUrl redisUrl(RedisProperties properties, Environment environment) {
		return RedisUrl.resolve(properties, Binder.get(environment), LogFactory.getLog(RedisUrl.class));
	}

	@Bean(destroyMethod = "close")
	@Lazy
	SharedRedisClient sharedRedisClient(RedisUrl url) {
		return new SharedRedisClient(url.uri());
	}
}
