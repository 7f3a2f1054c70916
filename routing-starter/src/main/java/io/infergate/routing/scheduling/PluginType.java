package io.infergate.routing.scheduling;

import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

/**
 * A kind of filter, scorer or picker that configuration can instantiate, each instance under its own name and with
 * its own parameters:
 * <pre>
 * infergate.scheduling.plugins:
 *   prefix-cache-short: {type: prefix-cache, max-blocks: 16}
 * </pre>
 * Types are Spring beans (a static nested {@code Type} class of the plugin, annotated {@code @Component}), so adding
 * one needs no registration anywhere else. At startup every instance's parameters are bound to the type's
 * {@link #parametersType() record} (its {@code @DefaultValue}s apply), validated, and handed to {@link #create}; the
 * profiles then refer to instances by name. Nothing is created per decision.
 *
 * @param <P> the plugin interface its instances implement: {@link EndpointFilter}, {@link EndpointScorer} or
 * {@link EndpointPicker}
 * @param <A> the parameters record; {@link NoParameters} for a type without parameters
 */
public abstract class PluginType<P extends SchedulingPlugin, A extends Record> {

	private final Class<P> kind;

	private final String name;

	private final Class<A> parametersType;

	protected PluginType(Class<P> kind, String name, Class<A> parametersType) {
		this.kind = Objects.requireNonNull(kind, "kind");
		this.name = Objects.requireNonNull(name, "name");
		this.parametersType = Objects.requireNonNull(parametersType, "parametersType");
	}

	/** The instance named {@code name}; throws {@link PluginParameterException} for parameters that cannot work. */
	public abstract P create(String name, A parameters);

	/**
	 * The instances that exist without being declared, by name, each with its parameters as configuration would give
	 * them: by default one instance named after the type, with the default parameters. Configuration under a
	 * predefined instance's name (without a {@code type}, or with this one) overrides single parameters.
	 */
	public Map<String, Map<String, String>> predefinedInstances() {
		return Map.of(name, Map.of());
	}

	/**
	 * {@code parameters} as configuration would give them: each component that is not null, under its dashed name
	 * ({@code maxBlocks} as {@code max-blocks}), as text. For {@link #predefinedInstances()} given as records.
	 */
	protected static Map<String, String> asProperties(Record parameters) {
		Map<String, String> properties = new LinkedHashMap<>();
		for (RecordComponent component : parameters.getClass().getRecordComponents()) {
			Object value;
			try {
				value = component.getAccessor().invoke(parameters);
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException("cannot read " + component, ex);
			}
			if (value != null) {
				properties.put(DataObjectPropertyName.toDashedForm(component.getName()), value.toString());
			}
		}
		return properties;
	}

	/** The plugin interface its instances implement. */
	public final Class<P> kind() {
		return kind;
	}

	/** The type's name, as {@code type:} gives it. */
	public final String name() {
		return name;
	}

	public final Class<A> parametersType() {
		return parametersType;
	}

	@Override
	public String toString() {
		return kind.getSimpleName() + " type '" + name + "'";
	}

	/** The parameters of a type that has none: any parameter given is reported as unknown. */
	public record NoParameters() {
	}

	/** A type without parameters, whose instances {@code factory} makes from their names. */
	public abstract static class WithoutParameters<P extends SchedulingPlugin> extends PluginType<P, NoParameters> {

		private final Function<String, ? extends P> factory;

		protected WithoutParameters(Class<P> kind, String name, Function<String, ? extends P> factory) {
			super(kind, name, NoParameters.class);
			this.factory = Objects.requireNonNull(factory, "factory");
		}

		@Override
		public final P create(String name, NoParameters parameters) {
			return factory.apply(name);
		}
	}
}
