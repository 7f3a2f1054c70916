package io.infergate.routing.redis;

import java.net.URI;

import io.lettuce.core.RedisURI;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The one Redis of a gateway, {@code infergate.redis.*}: shared limits and dispatch sharing use it. The deprecated
 * {@code infergate.rate-limits.redis-url} and {@code infergate.scheduling.dispatch-sharing.redis-url} still set it
 * ({@link RedisUrl}).
 *
 * @param url {@code redis://[user:password@]host:port[/db]} (or {@code rediss://} for TLS), a standalone Redis 5 or
 * later or a primary; default {@code redis://127.0.0.1:6379}
 */
@Validated
@ConfigurationProperties("infergate.redis")
public record RedisProperties(@DefaultValue(RedisProperties.DEFAULT_URL) @NotNull URI url) {

	public static final String URL_PROPERTY = "infergate.redis.url";

	public static final String DEFAULT_URL = "redis://127.0.0.1:6379";

	public RedisProperties {
		if (url != null) {
			try {
				RedisURI.create(url);
			}
			catch (RuntimeException ex) {
				throw new IllegalArgumentException(URL_PROPERTY + ": not a Redis URL such as " + DEFAULT_URL + " ("
						+ ex.getMessage() + ")", ex);
			}
		}
	}

	/** Without the URL's password, which a log line or {@code /actuator/configprops} must not show. */
	@Override
	public String toString() {
		return "RedisProperties[url=" + withoutPassword(url) + "]";
	}

	/** {@code url} with any user information after its user name replaced by {@code ******}. */
	static String withoutPassword(URI url) {
		if (url == null || url.getRawUserInfo() == null) {
			return String.valueOf(url);
		}
		String userInfo = url.getRawUserInfo();
		int colon = userInfo.indexOf(':');
		String masked = (colon >= 0) ? userInfo.substring(0, colon + 1) + "******" : "******";
		return url.toString().replace(userInfo + "@", masked + "@");
	}
}
