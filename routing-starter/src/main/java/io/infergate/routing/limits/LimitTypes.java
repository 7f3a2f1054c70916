package io.infergate.routing.limits;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.ResolvableType;

import io.infergate.routing.config.ConfigurationCheck;
import io.infergate.routing.limits.RateLimitPolicy.TypedLimits;

/**
 * The application's own {@link LimitType}s and the limits {@code infergate.rate-limits.by} gives their subjects. A
 * name there that no type has is a startup problem, reported with every other.
 */
public final class LimitTypes implements ConfigurationCheck {

	/** Where each type's subjects get their limits: {@code infergate.rate-limits.by.<type>.<subject>}. */
	public static final String PROPERTY = "infergate.rate-limits.by";

	private static final Bindable<Map<String, Map<String, Limits>>> LIMITS_BY_SUBJECT = Bindable
		.of(ResolvableType.forClassWithGenerics(Map.class, ResolvableType.forClass(String.class),
				ResolvableType.forClassWithGenerics(Map.class, String.class, Limits.class)));

	private final Map<String, LimitType> types = new TreeMap<>();

	private final Map<String, Map<String, Limits>> configured;

	private final List<String> problems = new ArrayList<>();

	public LimitTypes(List<LimitType> types, Map<String, Map<String, Limits>> configured) {
		for (LimitType type : types) {
			LimitType other = this.types.putIfAbsent(type.name(), type);
			if (other != null) {
				problems.add(PROPERTY + "." + type.name() + ": two limit types are named '" + type.name() + "' ("
						+ other.getClass().getName() + ", " + type.getClass().getName() + ")");
			}
		}
		this.configured = new LinkedHashMap<>(configured);
		this.configured.keySet().stream().filter((name) -> !this.types.containsKey(name)).forEach((name) -> problems
			.add(PROPERTY + "." + name + ": no limit type named '" + name + "'; limit types: " + (this.types.isEmpty()
					? "none (a limit type is a LimitType bean)" : String.join(", ", this.types.keySet()))));
		this.configured.forEach((name, subjects) -> subjects.forEach((subject, limits) -> problems
			.addAll(RateLimitProperties.limitProblems(PROPERTY + "." + name + "." + subject, limits))));
	}

	/** The types as the environment configures them. */
	public static LimitTypes bind(Binder binder, List<LimitType> types) {
		return new LimitTypes(types, binder.bind(PROPERTY, LIMITS_BY_SUBJECT).orElse(Map.of()));
	}

	@Override
	public List<String> problems() {
		return List.copyOf(problems);
	}

	/** Each type that some subject has limits of, with them. */
	public List<TypedLimits> typed() {
		List<TypedLimits> typed = new ArrayList<>();
		types.forEach((name, type) -> {
			TypedLimits limits = new TypedLimits(type, configured.getOrDefault(name, Map.of()));
			if (limits.limitsAnything()) {
				typed.add(limits);
			}
		});
		return typed;
	}
}
