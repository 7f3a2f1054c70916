package io.infergate.routing.redis;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.boot.context.properties.bind.Binder;

import io.infergate.routing.config.InvalidConfigurationException;

/**
 * The Redis the gateway uses: {@code infergate.redis.url}, or, when only a deprecated Redis URL of the limits or of
 * dispatch sharing is set, that one. Each deprecated URL that is set is logged once as deprecated, naming
 * {@code infergate.redis.url}; two deprecated URLs naming different servers stop startup, since the gateway has one
 * Redis.
 *
 * @param uri the URL
 */
public record RedisUrl(URI uri) {

	/** The deprecated properties, each still read for one release. */
	public static final List<String> DEPRECATED_PROPERTIES = List.of("infergate.rate-limits.redis-url",
			"infergate.scheduling.dispatch-sharing.redis-url");

	/** The URL {@code properties} and the deprecated properties in {@code binder} give, warning on {@code logger}. */
	public static RedisUrl resolve(RedisProperties properties, Binder binder, Log logger) {
		Map<String, String> deprecated = new LinkedHashMap<>();
		for (String property : DEPRECATED_PROPERTIES) {
			binder.bind(property, String.class).ifBound((url) -> deprecated.put(property, url));
		}
		boolean urlSet = binder.bind(RedisProperties.URL_PROPERTY, String.class).isBound();
		deprecated.keySet()
			.forEach((property) -> logger.warn(property + " is deprecated: use " + RedisProperties.URL_PROPERTY
					+ (urlSet ? " (set too, so " + property + " is ignored)" : "")));
		if (urlSet || deprecated.isEmpty()) {
			return new RedisUrl(properties.url());
		}
		if (deprecated.values().stream().distinct().count() > 1) {
			throw new InvalidConfigurationException(List.of(String.join(" and ", deprecated.keySet())
					+ " name different Redis servers, but the gateway uses one: set " + RedisProperties.URL_PROPERTY));
		}
		// validated as infergate.redis.url is
		return new RedisUrl(new RedisProperties(URI.create(deprecated.values().iterator().next())).url());
	}

	/** Without the URL's password. */
	@Override
	public String toString() {
		return "RedisUrl[" + RedisProperties.withoutPassword(uri) + "]";
	}
}
