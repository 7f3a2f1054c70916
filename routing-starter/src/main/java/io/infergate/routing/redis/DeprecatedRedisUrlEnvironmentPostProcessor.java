package io.infergate.routing.redis;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Sets {@code infergate.redis.url} from the deprecated Redis URLs of the limits and of dispatch sharing when it is
 * not set itself, and warns once about each deprecated one that is set. Two deprecated URLs naming different Redis
 * servers stop startup: the gateway has one Redis.
 */
public class DeprecatedRedisUrlEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	public static final List<String> DEPRECATED_PROPERTIES = List.of("infergate.rate-limits.redis-url",
			"infergate.scheduling.dispatch-sharing.redis-url");

	static final String SOURCE_NAME = "infergate.redis.url from a deprecated property";

	/** After config data has been loaded, so every application file is seen. */
	public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	private final Log logger;

	public DeprecatedRedisUrlEnvironmentPostProcessor(DeferredLogFactory logs) {
		this.logger = logs.getLog(DeprecatedRedisUrlEnvironmentPostProcessor.class);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Binder binder = Binder.get(environment);
		Map<String, String> deprecated = new LinkedHashMap<>();
		for (String property : DEPRECATED_PROPERTIES) {
			binder.bind(property, String.class).ifBound((url) -> deprecated.put(property, url));
		}
		if (deprecated.isEmpty() || environment.getPropertySources().contains(SOURCE_NAME)) {
			return;
		}
		boolean urlSet = binder.bind(RedisProperties.URL_PROPERTY, String.class).isBound();
		deprecated.keySet()
			.forEach((property) -> logger.warn(property + " is deprecated: use " + RedisProperties.URL_PROPERTY
					+ (urlSet ? " (set too, so " + property + " is ignored)" : "")));
		if (urlSet) {
			return;
		}
		if (deprecated.values().stream().distinct().count() > 1) {
			throw new IllegalStateException(String.join(" and ", deprecated.keySet())
					+ " name different Redis servers, but the gateway uses one: set " + RedisProperties.URL_PROPERTY);
		}
		String url = deprecated.values().iterator().next();
		environment.getPropertySources()
			.addLast(new MapPropertySource(SOURCE_NAME, Map.of(RedisProperties.URL_PROPERTY, url)));
	}
}
