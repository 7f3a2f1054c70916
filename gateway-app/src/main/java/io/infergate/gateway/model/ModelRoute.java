package io.infergate.gateway.model;

/**
 * Where a requested model goes.
 *
 * @param pool the pool that serves it
 * @param targetModel the base model name the pool's servers know
 * @param adapter the LoRA adapter, or {@code null}
 */
public record ModelRoute(String pool, String targetModel, String adapter) {

	/** The {@code model} to send to the server: vLLM serves a LoRA adapter under the adapter's own name. */
	public String upstreamModel() {
		return (adapter != null) ? adapter : targetModel;
	}
}
