package io.infergate.gateway.config.reload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.cloud.context.refresh.ContextRefresher;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

import io.infergate.routing.engine.LiveConfiguration;

/**
 * Live configuration: a change to the configuration files (watched) or {@code POST /actuator/refresh} makes Spring
 * Cloud refresh the environment, and every refresh that changed an {@code infergate.*} property reloads what the
 * engine routes with ({@link LiveConfiguration}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ConfigReloadProperties.class)
public class ConfigReloadConfiguration {

	private static final Log logger = LogFactory.getLog(ConfigReloadConfiguration.class);

	/** The file of a configuration file's property source, e.g. {@code Config resource 'file [config/a.yml]' ...}. */
	private static final Pattern FILE_SOURCE = Pattern.compile("Config resource 'file \\[(.+?)\\]'");

	@Bean
	ApplicationListener<EnvironmentChangeEvent> infergateConfigurationReload(ObjectProvider<LiveConfiguration> live) {
		return (event) -> {
			long infergateKeys = event.getKeys().stream().filter((key) -> key.startsWith("infergate.")).count();
			LiveConfiguration configuration = live.getIfAvailable();
			if (infergateKeys > 0 && configuration != null) {
				configuration.reload("refresh, " + infergateKeys + " infergate properties changed");
			}
		};
	}

	@Bean
	ConfigFileWatcher infergateConfigFileWatcher(ConfigReloadProperties properties, ConfigurableEnvironment environment,
			ObjectProvider<ContextRefresher> refresher) {
		List<Path> files = properties.files().isEmpty() ? loadedFiles(environment) : properties.files();
		return new ConfigFileWatcher(files, properties.watchInterval(), () -> {
			ContextRefresher contextRefresher = refresher.getIfAvailable();
			if (contextRefresher == null) {
				logger.warn("A configuration file changed, but Spring Cloud's refresh is off "
						+ "(spring.cloud.refresh.enabled=false): nothing reloads");
				return;
			}
			contextRefresher.refresh();
		});
	}

	/** The configuration files Spring Boot loaded from the file system. */
	static List<Path> loadedFiles(ConfigurableEnvironment environment) {
		List<Path> files = new ArrayList<>();
		for (PropertySource<?> source : environment.getPropertySources()) {
			Matcher matcher = FILE_SOURCE.matcher(source.getName());
			if (matcher.find()) {
				Path file = Path.of(matcher.group(1)).toAbsolutePath().normalize();
				if (!files.contains(file)) {
					files.add(file);
				}
			}
		}
		return files;
	}
}
