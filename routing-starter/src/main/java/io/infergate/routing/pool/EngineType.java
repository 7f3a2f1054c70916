package io.infergate.routing.pool;

/** The model-server engine a pool runs; it picks the metric-name mapping used to scrape its endpoints. */
public enum EngineType {

	VLLM("vllm"), SGLANG("sglang"), TRTLLM_SERVE("trtllm-serve"), TRITON_TRTLLM("triton-trtllm");

	private final String configName;

	EngineType(String configName) {
		this.configName = configName;
	}

	/** The name used in YAML and in {@code /actuator/inference}. */
	public String configName() {
		return configName;
	}
}
