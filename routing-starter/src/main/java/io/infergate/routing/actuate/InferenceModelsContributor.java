package io.infergate.routing.actuate;

import java.util.List;

/**
 * Supplies the {@code models} of {@code /actuator/inference}: the application resolves model names to pools, and
 * reports here how (targets and weights, lanes, fallbacks) and how often each route was taken. Without one, the
 * report's {@code models} is empty.
 */
@FunctionalInterface
public interface InferenceModelsContributor {

	/** Each configured model, in configuration order. */
	List<InferenceReport.Model> models();
}
