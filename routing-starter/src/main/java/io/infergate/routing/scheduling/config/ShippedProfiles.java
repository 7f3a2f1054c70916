package io.infergate.routing.scheduling.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;

/**
 * The scheduling profiles Infergate ships, {@code classpath:infergate-profiles.yml}: the single definition that the
 * gateway and the bench harness both read.
 * <p>
 * A document of the file that carries {@code spring.config.activate.on-profile} applies only when that Spring
 * profile is active, as in an application file. The file's profile documents only set
 * {@code infergate.scheduling.default-profile}; choosing a scheduling profile that way is deprecated.
 */
public final class ShippedProfiles {

	public static final String LOCATION = "infergate-profiles.yml";

	private static final String ACTIVATION_KEY = "spring.config.activate.on-profile";

	private ShippedProfiles() {
	}

	/**
	 * The file's documents that apply, highest precedence first: profile-specific documents before the base
	 * document, as Spring Boot orders an application file's documents.
	 * @param activeProfiles tells whether a profile expression such as {@code load-only} is active
	 */
	public static List<PropertySource<?>> load(Predicate<String> activeProfiles) {
		Resource resource = new ClassPathResource(LOCATION, ShippedProfiles.class.getClassLoader());
		List<PropertySource<?>> documents;
		try {
			documents = new YamlPropertySourceLoader().load("Infergate shipped profiles (" + LOCATION + ")", resource);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + LOCATION, ex);
		}
		List<PropertySource<?>> base = new ArrayList<>();
		List<PropertySource<?>> applied = new ArrayList<>();
		for (PropertySource<?> document : documents) {
			String activation = activation(document);
			if (activation == null) {
				base.add(document);
			}
			else if (activeProfiles.test(activation)) {
				applied.add(0, document);
			}
		}
		applied.addAll(base);
		return applied;
	}

	/** The Spring profile expression that a document of the file applies under, or null for the base document. */
	public static String activation(PropertySource<?> document) {
		Object activation = document.getProperty(ACTIVATION_KEY);
		return (activation != null) ? activation.toString() : null;
	}
}
