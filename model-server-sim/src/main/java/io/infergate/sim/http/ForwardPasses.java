package io.infergate.sim.http;

import java.util.ArrayList;
import java.util.List;

import io.infergate.sim.engine.EngineRequest;
import io.infergate.sim.engine.WallClockEngine;

/**
 * Runs inputs through the engine as a pooling model runs them: one forward pass each, modelled as the prompt's
 * prefill plus a single output token, so embeddings, rerank and score load the engine (queue, batch, KV cache) as
 * a generation of one token would.
 */
final class ForwardPasses {

	private ForwardPasses() {
	}

	/**
	 * Runs every prompt at once and waits for all. Each must fit {@code maxModelLen} (with vLLM's error for
	 * {@code operation} otherwise, e.g. "embedding generation").
	 */
	static void run(WallClockEngine engine, List<int[]> prompts, String adapter, String operation, String param)
			throws OpenAiError, InterruptedException {
		int maxModelLen = engine.config().maxModelLen();
		for (int[] prompt : prompts) {
			if (prompt.length > maxModelLen) {
				throw OpenAiError.badRequest("This model's maximum context length is " + maxModelLen
						+ " tokens. However, you requested " + prompt.length + " tokens in the input for " + operation
						+ ". Please reduce the length of the input.", param);
			}
			if (prompt.length == 0) {
				throw OpenAiError.badRequest("An input is empty.", param);
			}
			String reason = engine.rejectionReason(prompt.length, 1, adapter);
			if (reason != null) {
				throw OpenAiError.badRequest(reason, param);
			}
		}
		List<EngineRequest> requests = new ArrayList<>(prompts.size());
		List<GenerationProgress> progress = new ArrayList<>(prompts.size());
		for (int[] prompt : prompts) {
			GenerationProgress pass = new GenerationProgress(false);
			progress.add(pass);
			requests.add(new EngineRequest(prompt, adapter, 1, pass));
		}
		engine.submitAll(requests);
		try {
			for (GenerationProgress pass : progress) {
				pass.awaitFinished();
			}
		}
		catch (InterruptedException ex) {
			requests.forEach(engine::abort);
			throw ex;
		}
	}

	static int tokens(List<int[]> prompts) {
		int tokens = 0;
		for (int[] prompt : prompts) {
			tokens += prompt.length;
		}
		return tokens;
	}
}
