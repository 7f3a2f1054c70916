package io.infergate.gateway.route;

import java.util.List;


/**
 * The models one request may be served by, in the order they are tried: the model the client asked for, then its
 * fallbacks. Kept in the request's {@link InferenceContext}; one request's steps use it one at a time.
 */
public final class ModelFallbacks {

	private final List<String> models;

	private int current;

	ModelFallbacks(List<String> models) {
		this.models = List.copyOf(models);
	}

	/** The model being tried. */
	public String current() {
		return models.get(current);
	}

	/** Whether a fallback is left to try after the current model. */
	public boolean hasNext() {
		return current + 1 < models.size();
	}

	/** How many fallbacks the request has taken: 0 while on the model the client asked for. */
	public int taken() {
		return current;
	}

	/** Moves on to the next fallback and returns it. */
	String next() {
		if (!hasNext()) {
			throw new IllegalStateException("no fallback left after " + current());
		}
		current++;
		return current();
	}
}
