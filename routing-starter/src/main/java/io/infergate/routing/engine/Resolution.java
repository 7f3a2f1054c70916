package io.infergate.routing.engine;

import java.util.List;

import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.request.InferenceRequest;

/** What {@link InferenceEngine#resolve} found for the model being tried: a route, or why there is none. */
public sealed interface Resolution {

	/**
	 * The model routes to {@code route}; {@code request} is what limits, flow control and scheduling are told of it.
	 */
	record Routed(ModelRoute route, InferenceRequest request) implements Resolution {
	}

	/** No configured model has this name and no single pool serves it; {@code suggestions} are close names. */
	record UnknownModel(String model, List<String> suggestions) implements Resolution {
	}

	/** Every lane of {@code model} takes fewer than {@code tokens} (estimated prompt plus {@code max_tokens}). */
	record NoLaneFits(String model, long tokens, long largestLaneTokens) implements Resolution {

		/** Why, in words a client reads in its error. */
		public String reason() {
			return "about " + tokens + " tokens (estimated prompt plus max_tokens), more than any lane of `" + model
					+ "` takes (at most " + largestLaneTokens + ")";
		}
	}
}
