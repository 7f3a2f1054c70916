package io.infergate.gateway.route;

import org.springframework.cloud.gateway.filter.GatewayFilter;

/**
 * A request-path step of an application's own: a bean that the inference route runs when
 * {@code infergate.gateway.steps} names it, at its {@linkplain #order() order} among the route's own steps (use the
 * orders {@link InferenceRoute} names: {@code InferenceRoute.AUTHENTICATE + 1} runs right after authentication).
 * The bean's name is the step's name.
 */
public interface InferenceStep extends GatewayFilter {

	/** Where the step runs: lower runs first, and wraps the steps after it. */
	int order();
}
