package io.infergate.routing.scheduling.config;

import java.util.List;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.Profiles;
import org.springframework.core.env.PropertySource;

/**
 * Adds the {@link ShippedProfiles} after every other property source (visible as such in {@code /actuator/env}), so an application's own
 * {@code application.yml}, profile files, environment and arguments can change any shipped weight, filter or
 * picker, or add profiles of their own, without importing anything.
 * <p>
 * An active Spring profile named like a shipped scheduling profile still makes it the default, through the file's
 * profile documents, with a warning: {@code infergate.scheduling.default-profile} is the way to choose it.
 */
public class ShippedProfilesEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** After config data has been loaded, so the active Spring profiles are known. */
	public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	static final ConfigurationPropertyName DEFAULT_PROFILE = ConfigurationPropertyName
		.of("infergate.scheduling.default-profile");

	private final Log logger;

	public ShippedProfilesEnvironmentPostProcessor(DeferredLogFactory logs) {
		this.logger = logs.getLog(ShippedProfilesEnvironmentPostProcessor.class);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		List<PropertySource<?>> documents = ShippedProfiles
			.load((expression) -> environment.acceptsProfiles(Profiles.of(expression)));
		MutablePropertySources sources = environment.getPropertySources();
		boolean added = false;
		for (PropertySource<?> document : documents) {
			if (!sources.contains(document.getName())) {
				sources.addLast(document);
				added = true;
			}
		}
		if (added) {
			logger.debug("The shipped scheduling profiles (infergate-profiles.yml) are below every other property "
					+ "source: the application's configuration overrides them");
		}
		warnIfASpringProfileChoseTheDefault(environment);
	}

	/** When the default profile comes from a profile document of the shipped file, a Spring profile chose it. */
	private void warnIfASpringProfileChoseTheDefault(ConfigurableEnvironment environment) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(DEFAULT_PROFILE);
			if (property != null) {
				if (source.getUnderlyingSource() instanceof PropertySource<?> document
						&& ShippedProfiles.activation(document) != null) {
					logger.warn("Choosing the default scheduling profile with spring.profiles.active="
							+ ShippedProfiles.activation(document) + " is deprecated: set " + DEFAULT_PROFILE + "="
							+ property.getValue());
				}
				return;
			}
		}
	}
}
