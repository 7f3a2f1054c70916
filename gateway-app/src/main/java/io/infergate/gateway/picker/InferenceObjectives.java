package io.infergate.gateway.picker;

import java.util.OptionalInt;

/**
 * The priorities of the Gateway API Inference Extension's {@code InferenceObjective}s, by name: a request that
 * names one in header {@code x-gateway-inference-objective} takes its priority (higher is more critical, negative
 * is sheddable, Infergate's own convention). An unknown name, or none, leaves the request's priority as its key
 * gives it.
 */
@FunctionalInterface
public interface InferenceObjectives {

	/** No objectives known: every request keeps its own priority. */
	InferenceObjectives NONE = (name) -> OptionalInt.empty();

	/** The priority of the objective {@code name}, or empty when no such objective is known. */
	OptionalInt priority(String name);
}
