package io.infergate.gateway.observe;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The access log, {@code infergate.access-log.*}.
 *
 * @param enabled Whether every inference request is logged as one JSON line on the {@code io.infergate.access}
 * logger.
 */
@ConfigurationProperties("infergate.access-log")
public record AccessLogProperties(@DefaultValue("false") boolean enabled) {
}
