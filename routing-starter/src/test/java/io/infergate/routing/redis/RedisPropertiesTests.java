package io.infergate.routing.redis;

import java.net.URI;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RedisPropertiesTests {

	@Test
	void theUrlsPasswordNeverShowsInToString() {
		assertThat(new RedisProperties(URI.create("redis://app:s3cret@redis-a:6380/2")))
			.hasToString("RedisProperties[url=redis://app:******@redis-a:6380/2]");
		assertThat(new RedisProperties(URI.create("rediss://s3cret@redis-a:6380")))
			.hasToString("RedisProperties[url=rediss://******@redis-a:6380]");
		assertThat(new RedisProperties(URI.create("redis://redis-a:6380")))
			.hasToString("RedisProperties[url=redis://redis-a:6380]");
	}
}
