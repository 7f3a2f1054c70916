package io.infergate.routing.scheduling.config;

import java.util.List;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.Profiles;
import org.springframework.core.env.PropertySource;

/**
 * Adds the {@link ShippedProfiles} after every other property source, so an application's own
 * {@code application.yml}, profile files, environment and arguments can change any shipped weight, filter or
 * picker, or add profiles of their own, without importing anything.
 */
public class ShippedProfilesEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** After config data has been loaded, so the active Spring profiles are known. */
	public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		List<PropertySource<?>> documents = ShippedProfiles
			.load((expression) -> environment.acceptsProfiles(Profiles.of(expression)));
		MutablePropertySources sources = environment.getPropertySources();
		for (PropertySource<?> document : documents) {
			if (!sources.contains(document.getName())) {
				sources.addLast(document);
			}
		}
	}
}
