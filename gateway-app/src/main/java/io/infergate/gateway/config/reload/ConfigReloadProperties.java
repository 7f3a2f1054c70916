package io.infergate.gateway.config.reload;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the gateway notices that its configuration files changed.
 *
 * @param watchInterval How often the configuration files are read for changes; {@code 0} turns the watch off
 * (a reload then comes only from {@code POST /actuator/refresh}).
 * @param files The files to watch; empty (the default): every configuration file Spring Boot loaded from the file
 * system at startup ({@code ./config/application.yml}, {@code spring.config.location} and the like).
 */
@ConfigurationProperties("infergate.config-reload")
public record ConfigReloadProperties(@DefaultValue("5s") Duration watchInterval, @DefaultValue List<Path> files) {
}
