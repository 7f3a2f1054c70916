package io.infergate.gateway.replay;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

import io.infergate.admin.replay.ReplayRuns.Choice;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.config.SchedulingProperties;

/**
 * The scheduling configuration a replay's engine gets, as the running gateway has it: every profile (the shipped
 * ones and the application's own) with its filters, picker, load and current weights (runtime changes included),
 * the plugin instances, and the other {@code infergate.scheduling.*} settings (saturation, prefix index, engine
 * blocks); the choice's profile with the choice's weights. Dispatch sharing is left out: a replay has one gateway,
 * and must never reach the gateway's Redis.
 */
final class EngineProperties {

	private static final ConfigurationPropertyName SCHEDULING = ConfigurationPropertyName.of("infergate.scheduling");

	/** Bound whole below, so that a list comes from one source only as the engine's own binding would take it. */
	private static final List<ConfigurationPropertyName> BOUND = List.of(
			ConfigurationPropertyName.of("infergate.scheduling.profiles"),
			ConfigurationPropertyName.of("infergate.scheduling.plugins"),
			ConfigurationPropertyName.of("infergate.scheduling.default-profile"),
			ConfigurationPropertyName.of("infergate.scheduling.dispatch-sharing"));

	private EngineProperties() {
	}

	static Map<String, String> of(Environment environment, SchedulingProfiles running, Choice choice) {
		Map<String, String> properties = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.stream()
					.filter((name) -> SCHEDULING.isAncestorOf(name)
							&& BOUND.stream().noneMatch((bound) -> bound.equals(name) || bound.isAncestorOf(name)))
					.forEach((name) -> {
						String value = environment.getProperty(name.toString());
						if (value != null) {
							properties.putIfAbsent(name.toString(), value);
						}
					});
			}
		}
		SchedulingProperties scheduling = Binder.get(environment).bindOrCreate(SCHEDULING.toString(), SchedulingProperties.class);
		properties.put("infergate.scheduling.default-profile", scheduling.defaultProfile());
		scheduling.profiles().forEach((name, profile) -> {
			String prefix = "infergate.scheduling.profiles[" + name + "]";
			for (int i = 0; i < profile.filters().size(); i++) {
				properties.put(prefix + ".filters[" + i + "]", profile.filters().get(i));
			}
			Map<String, Double> weights = name.equals(choice.profile()) ? choice.weights()
					: running.names().contains(name) ? running.get(name).weights() : profile.scorers();
			weights.forEach((scorer, weight) -> properties.put(prefix + ".scorers[" + scorer + "]",
					Double.toString(weight)));
			if (profile.picker() != null) {
				properties.put(prefix + ".picker", profile.picker());
			}
			if (profile.load() != null) {
				properties.put(prefix + ".load", profile.load());
			}
		});
		scheduling.plugins().forEach((instance, parameters) -> {
			if (parameters != null) {
				parameters.forEach((parameter, value) -> properties
					.put("infergate.scheduling.plugins[" + instance + "][" + parameter + "]", value));
			}
		});
		return properties;
	}
}
