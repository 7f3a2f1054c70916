package io.infergate.routing.model;

/**
 * Where one attempt at a request goes.
 *
 * @param model the model name being served: the client's, or the fallback being tried
 * @param pool the pool that serves it
 * @param targetModel the base model name the pool's servers know
 * @param adapter the LoRA adapter, or {@code null}
 */
public record ModelRoute(String model, String pool, String targetModel, String adapter) {

	/** The {@code model} to send to the server: vLLM serves a LoRA adapter under the adapter's own name. */
	public String upstreamModel() {
		return (adapter != null) ? adapter : targetModel;
	}
}
