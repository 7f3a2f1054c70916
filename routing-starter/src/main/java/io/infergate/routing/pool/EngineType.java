package io.infergate.routing.pool;

/** The model-server engine a pool runs; it picks the metric-name mapping used to scrape its endpoints. */
public enum EngineType {

	VLLM("vllm", true), SGLANG("sglang", true), TRTLLM_SERVE("trtllm-serve", false),
	TRITON_TRTLLM("triton-trtllm", false);

	private final String configName;

	private final boolean servesTokenizerEndpoints;

	EngineType(String configName, boolean servesTokenizerEndpoints) {
		this.configName = configName;
		this.servesTokenizerEndpoints = servesTokenizerEndpoints;
	}

	/**
	 * Whether its servers answer {@code POST /tokenize} and {@code /detokenize} (vLLM's; SGLang's take the same
	 * {@code prompt}); for an engine without them, the gateway answers with the model's tokenizer when one is
	 * configured.
	 */
	public boolean servesTokenizerEndpoints() {
		return servesTokenizerEndpoints;
	}

	/** The name used in YAML and in {@code /actuator/inference}. */
	public String configName() {
		return configName;
	}
}
