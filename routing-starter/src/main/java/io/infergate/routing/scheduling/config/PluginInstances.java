package io.infergate.routing.scheduling.config;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;

import io.infergate.routing.scheduling.EndpointFilter;
import io.infergate.routing.scheduling.EndpointLoad;
import io.infergate.routing.scheduling.EndpointPicker;
import io.infergate.routing.scheduling.EndpointScorer;
import io.infergate.routing.scheduling.PluginParameterException;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.SchedulingPlugin;

import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Every plugin instance, by kind and name, resolved once at startup from the {@link PluginType} beans, the
 * declarations under {@code infergate.scheduling.plugins} and the plugin beans that are instances already (a
 * user's own {@code EndpointScorer} bean, say, named by its {@link SchedulingPlugin#name()}).
 * <p>
 * An instance's type is its declaration's {@code type}; without one, the name must be a type's predefined instance
 * (such as {@code queue}, an instance of {@code metric}), whose parameters the declaration's override one by one.
 * Problems are collected, each with its property path: an unknown or missing type (with the valid types), an unknown
 * parameter (with the type's valid ones), a value that does not convert or breaks a constraint, and two plugins of one
 * kind with the same name.
 */
final class PluginInstances {

	static final String PREFIX = "infergate.scheduling.plugins";

	private static final String TYPE_KEY = "type";

	private static final List<Class<? extends SchedulingPlugin>> KINDS = List.of(EndpointFilter.class,
			EndpointScorer.class, EndpointPicker.class, EndpointLoad.class);

	private final Map<Class<?>, Map<String, SchedulingPlugin>> byKind = new LinkedHashMap<>();

	/** Names declared or predefined whose instance could not be built: their problem is reported already. */
	private final Map<Class<?>, Set<String>> broken = new LinkedHashMap<>();

	private final Set<String> problems = new LinkedHashSet<>();

	private final Set<String> predefinedNames = new TreeSet<>();

	PluginInstances(Collection<? extends PluginType<?, ?>> types, Collection<? extends SchedulingPlugin> beans,
			Map<String, Map<String, String>> declarations) {
		Map<String, Map<String, String>> declared = (declarations == null) ? Map.of() : declarations;
		Map<Class<?>, Map<String, PluginType<?, ?>>> typesByKind = typesByKind(types);
		Set<String> typeNames = new TreeSet<>();
		typesByKind.values().forEach((byName) -> typeNames.addAll(byName.keySet()));
		for (Class<? extends SchedulingPlugin> kind : KINDS) {
			byKind.put(kind, new TreeMap<>());
			broken.put(kind, new TreeSet<>());
		}
		for (SchedulingPlugin bean : beans) {
			for (Class<? extends SchedulingPlugin> kind : KINDS) {
				if (kind.isInstance(bean)) {
					add(kind, bean.name(), bean);
				}
			}
		}
		try (ValidatorFactory validation = Validation.buildDefaultValidatorFactory()) {
			Validator validator = validation.getValidator();
			typesByKind.forEach((kind, kindTypes) -> {
				Map<String, Predefined> predefined = predefined(kind, kindTypes);
				Set<String> names = new TreeSet<>(predefined.keySet());
				names.addAll(declared.keySet());
				for (String name : names) {
					Instance instance = instance(kind, name, predefined.get(name), declared.get(name), kindTypes);
					if (instance != null) {
						create(kind, name, instance, validator);
					}
				}
			});
		}
		declared.forEach((name, declaration) -> {
			String type = (declaration == null) ? null : declaration.get(TYPE_KEY);
			String at = PREFIX + "." + name + ".type";
			if (type == null && !predefinedNames.contains(name)) {
				problems.add(at + ": missing; '" + name + "' is not a predefined plugin, so its type must be given; "
						+ "valid types: " + String.join(", ", typeNames));
			}
			else if (type != null && !typeNames.contains(type)) {
				problems.add(at + ": unknown type '" + type + "'; valid types: " + String.join(", ", typeNames));
			}
		});
	}

	/** The instances of {@code kind} by name, sorted by name. */
	@SuppressWarnings("unchecked")
	<P extends SchedulingPlugin> Map<String, P> of(Class<P> kind) {
		return Collections.unmodifiableMap((Map<String, P>) byKind.get(kind));
	}

	/** Whether {@code name} was declared or predefined as a {@code kind} but could not be built. */
	boolean isBroken(Class<?> kind, String name) {
		return broken.get(kind).contains(name);
	}

	List<String> problems() {
		return List.copyOf(problems);
	}

	private Map<Class<?>, Map<String, PluginType<?, ?>>> typesByKind(Collection<? extends PluginType<?, ?>> types) {
		Map<Class<?>, Map<String, PluginType<?, ?>>> typesByKind = new LinkedHashMap<>();
		for (PluginType<?, ?> type : types) {
			PluginType<?, ?> previous = typesByKind.computeIfAbsent(type.kind(), (kind) -> new TreeMap<>())
				.putIfAbsent(type.name(), type);
			if (previous != null) {
				problems.add("two " + kindName(type.kind()) + " types are named '" + type.name() + "': "
						+ previous.getClass().getName() + " and " + type.getClass().getName());
			}
		}
		return typesByKind;
	}

	private Map<String, Predefined> predefined(Class<?> kind, Map<String, PluginType<?, ?>> kindTypes) {
		Map<String, Predefined> predefined = new TreeMap<>();
		for (PluginType<?, ?> type : kindTypes.values()) {
			type.predefinedInstances().forEach((name, parameters) -> {
				predefinedNames.add(name);
				Predefined previous = predefined.putIfAbsent(name, new Predefined(type, parameters));
				if (previous != null) {
					problems.add("two " + kindName(kind) + "s are named '" + name + "': predefined by "
							+ previous.type() + " and " + type);
				}
			});
		}
		return predefined;
	}

	/** The type and parameters of {@code name} as a {@code kind}, or null when it is not one. */
	private static Instance instance(Class<?> kind, String name, Predefined predefined,
			Map<String, String> declaration, Map<String, PluginType<?, ?>> kindTypes) {
		Map<String, String> declared = (declaration == null) ? Map.of() : declaration;
		String typeName = declared.get(TYPE_KEY);
		PluginType<?, ?> type;
		Map<String, String> parameters = new LinkedHashMap<>();
		if (typeName == null || (predefined != null && predefined.type().name().equals(typeName))) {
			if (predefined == null) {
				return null;
			}
			type = predefined.type();
			parameters.putAll(predefined.parameters());
		}
		else {
			type = kindTypes.get(typeName);
			if (type == null) {
				return null; // a type of another kind, or none (reported once, not per kind)
			}
		}
		declared.forEach((key, value) -> {
			if (!TYPE_KEY.equals(key)) {
				parameters.put(key, value);
			}
		});
		return new Instance(type, parameters, declared.keySet());
	}

	private void create(Class<?> kind, String name, Instance instance, Validator validator) {
		int before = problems.size();
		Record parameters = bind(name, instance, validator);
		SchedulingPlugin plugin = null;
		if (problems.size() == before) {
			try {
				plugin = createUnchecked(instance.type(), name, parameters);
			}
			catch (PluginParameterException ex) {
				problems.add(PREFIX + "." + name + "." + ex.parameter() + ": " + ex.getMessage()
						.substring(ex.parameter().length() + 2) + " (" + describe(instance.type(), name) + ")");
			}
		}
		if (plugin == null) {
			broken.get(kind).add(name);
		}
		else {
			add(kind, name, plugin);
		}
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static SchedulingPlugin createUnchecked(PluginType type, String name, Record parameters) {
		return type.create(name, parameters);
	}

	/** The parameters record, or null with the problems added. */
	private Record bind(String name, Instance instance, Validator validator) {
		PluginType<?, ?> type = instance.type();
		Class<? extends Record> recordType = type.parametersType();
		Map<String, String> accepted = new TreeMap<>();
		for (RecordComponent component : recordType.getRecordComponents()) {
			accepted.put(uniform(component.getName()), DataObjectPropertyName.toDashedForm(component.getName()));
		}
		Map<String, String> source = new LinkedHashMap<>();
		instance.parameters().forEach((key, value) -> {
			if (accepted.containsKey(uniform(key))) {
				source.put("p." + key, value);
			}
			else if (instance.declaredKeys().contains(key)) {
				problems.add(PREFIX + "." + name + "." + key + ": unknown parameter of " + describe(type, name)
						+ "; valid parameters: " + (accepted.isEmpty() ? "(none)" : String.join(", ",
								new TreeSet<>(accepted.values()))));
			}
		});
		List<String> failures = new ArrayList<>();
		Binder binder = new Binder(new MapConfigurationPropertySource(source));
		Record parameters;
		try {
			parameters = binder.bindOrCreate("p", Bindable.of(recordType), new AbstractBindHandler() {

				@Override
				public Object onFailure(ConfigurationPropertyName property, Bindable<?> target, BindContext context,
						Exception error) {
					String parameter = property.toString().substring(2);
					Object value = source.get("p." + parameter);
					failures.add(PREFIX + "." + name + "." + parameter + ": cannot read '" + value + "' as "
							+ expected(target.getType().resolve()) + " (" + describe(type, name) + ")");
					return null;
				}
			});
		}
		catch (BindException ex) {
			parameters = null;
			if (failures.isEmpty()) {
				failures.add(PREFIX + "." + name + ": " + ex.getMessage() + " (" + describe(type, name) + ")");
			}
		}
		problems.addAll(failures);
		if (parameters == null || !failures.isEmpty()) {
			return null;
		}
		for (ConstraintViolation<Record> violation : validator.validate(parameters)) {
			String parameter = DataObjectPropertyName.toDashedForm(violation.getPropertyPath().toString());
			problems.add(PREFIX + "." + name + "." + parameter + ": " + violation.getMessage() + ", got "
					+ violation.getInvalidValue() + " (" + describe(type, name) + ")");
		}
		return parameters;
	}

	private static String expected(Class<?> type) {
		if (type != null && type.isEnum()) {
			List<String> values = new ArrayList<>();
			for (Object constant : type.getEnumConstants()) {
				values.add(((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'));
			}
			return "one of " + String.join(", ", values);
		}
		return (type != null) ? type.getSimpleName() : "its type";
	}

	private void add(Class<?> kind, String name, SchedulingPlugin plugin) {
		SchedulingPlugin previous = byKind.get(kind).putIfAbsent(name, plugin);
		if (previous != null) {
			problems.add("two " + kindName(kind) + "s are named '" + name + "': " + previous.getClass().getName()
					+ " and " + plugin.getClass().getName());
		}
	}

	private static String describe(PluginType<?, ?> type, String name) {
		return name.equals(type.name()) ? kindName(type.kind()) + " '" + name + "'"
				: kindName(type.kind()) + " '" + name + "' of type " + type.name();
	}

	static String kindName(Class<?> kind) {
		return kind.getSimpleName().replace("Endpoint", "").toLowerCase(Locale.ROOT);
	}

	/** A parameter name in the form relaxed binding compares: lower case without dashes or underscores. */
	private static String uniform(String key) {
		int end = key.length();
		for (int i = 0; i < key.length(); i++) {
			if (key.charAt(i) == '.' || key.charAt(i) == '[') {
				end = i;
				break;
			}
		}
		return key.substring(0, end).replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
	}

	private record Predefined(PluginType<?, ?> type, Map<String, String> parameters) {
	}

	private record Instance(PluginType<?, ?> type, Map<String, String> parameters, Set<String> declaredKeys) {
	}
}
