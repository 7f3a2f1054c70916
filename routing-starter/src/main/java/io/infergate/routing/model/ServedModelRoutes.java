package io.infergate.routing.model;

import java.util.Set;

/**
 * The models the pools' endpoints say they serve (their {@code /v1/models}), for models that are not configured:
 * such a model routes unchanged to the one pool that serves it. The gateway asks the endpoints over HTTP; the bench
 * harness knows its simulated pools' models.
 */
public interface ServedModelRoutes {

	/** Nothing is served beyond the configured models. */
	ServedModelRoutes NONE = new ServedModelRoutes() {

		@Override
		public ModelRoute resolve(String model) {
			return null;
		}

		@Override
		public Set<String> modelIds() {
			return Set.of();
		}
	};

	/** The route of {@code model} when exactly one pool's endpoints serve it, else {@code null}. */
	ModelRoute resolve(String model);

	/** Every model some endpoint serves. */
	Set<String> modelIds();
}
