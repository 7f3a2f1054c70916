package io.infergate.admin.replay;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.load.InFlightLoad;

/**
 * A profile as the {@code infergate.scheduling.profiles.<name>} block of an {@code application.yml}: its filters,
 * scorers with their weights, picker, and load when it is not the default {@code in-flight}. Names that YAML would
 * not read as plain strings are quoted.
 */
public final class ProfileYaml {

	private static final Pattern PLAIN = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");

	private ProfileYaml() {
	}

	/** {@code profile}'s block with {@code weights} for its scorers, in the profile's order. */
	public static String of(SchedulingProfile profile, Map<String, Double> weights) {
		StringBuilder yaml = new StringBuilder();
		yaml.append("infergate:\n  scheduling:\n    profiles:\n      ").append(name(profile.name())).append(":\n");
		List<String> filters = profile.filters().stream().map(EndpointFilter::name).map(ProfileYaml::name).toList();
		yaml.append("        filters: [").append(String.join(", ", filters)).append("]\n");
		if (!profile.weights().isEmpty()) {
			yaml.append("        scorers:\n");
			for (String scorer : profile.weights().keySet()) {
				double weight = weights.getOrDefault(scorer, profile.weights().get(scorer));
				yaml.append("          ").append(name(scorer)).append(": ").append(number(weight)).append('\n');
			}
		}
		yaml.append("        picker: ").append(name(profile.picker().name())).append('\n');
		if (!InFlightLoad.NAME.equals(profile.load().name())) {
			yaml.append("        load: ").append(name(profile.load().name())).append('\n');
		}
		return yaml.toString();
	}

	private static String name(String name) {
		return PLAIN.matcher(name).matches() && !List.of("true", "false", "null", "yes", "no", "on", "off")
			.contains(name.toLowerCase()) ? name : "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
	}

	/** 2 rather than 2.0, 0.001 rather than 1.0E-3. */
	private static String number(double weight) {
		return BigDecimal.valueOf(weight).stripTrailingZeros().toPlainString();
	}
}
