package io.infergate.routing.engine;

import java.util.List;

import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.openai.InvalidRequestException;
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

	/**
	 * Every lane of {@code model} takes fewer than {@code tokens} (prompt plus {@code max_tokens}); the prompt's
	 * tokens counted by the model's tokenizer when {@code exact}, else estimated.
	 */
	record NoLaneFits(String model, long tokens, long largestLaneTokens, boolean exact) implements Resolution {

		public NoLaneFits(String model, long tokens, long largestLaneTokens) {
			this(model, tokens, largestLaneTokens, false);
		}

		/** Why, in words a client reads in its error. */
		public String reason() {
			return (exact ? tokens + " tokens (prompt plus max_tokens)"
					: "about " + tokens + " tokens (estimated prompt plus max_tokens)") + ", more than any lane of `"
					+ model + "` takes (at most " + largestLaneTokens + ")";
		}
	}

	/**
	 * The model's tokenizer has costly work to do for this request (text it has not encoded recently), which the
	 * caller asked to be told of rather than have done where it called from: resolve again where that work may run.
	 */
	record NeedsTokenizing() implements Resolution {
	}

	/** The request's input cannot be tokenized for the model (its chat template rejects the messages). */
	record Untokenizable(InvalidRequestException problem) implements Resolution {
	}
}
