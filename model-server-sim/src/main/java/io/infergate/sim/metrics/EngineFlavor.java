package io.infergate.sim.metrics;

import java.util.Arrays;
import java.util.Locale;

/**
 * Which serving engine the simulator plays: the metric names {@code /metrics} uses, and whether it serves vLLM's
 * {@code /tokenize} and {@code /detokenize} (trtllm-serve has neither).
 */
public enum EngineFlavor {

	/** vLLM V1: {@code vllm:*} names, labels {@code model_name} and {@code engine}. */
	VLLM("vllm"),

	/** SGLang: {@code sglang:*} names, labels {@code model_name} and {@code tp_rank}. */
	SGLANG("sglang"),

	/** trtllm-serve: {@code trtllm_*} names, label {@code model_name}. */
	TRTLLM("trtllm");

	private final String cliName;

	EngineFlavor(String cliName) {
		this.cliName = cliName;
	}

	public String cliName() {
		return this.cliName;
	}

	/** Whether the engine answers {@code POST /tokenize} and {@code /detokenize}. */
	public boolean servesTokenizerEndpoints() {
		return this != TRTLLM;
	}

	/** The flavor for a command-line name, or an error listing the valid names. */
	public static EngineFlavor fromCliName(String name) {
		for (EngineFlavor flavor : values()) {
			if (flavor.cliName.equals(name.toLowerCase(Locale.ROOT))) {
				return flavor;
			}
		}
		throw new IllegalArgumentException("unknown engine '" + name + "' (valid: "
				+ String.join(", ", Arrays.stream(values()).map(EngineFlavor::cliName).toList()) + ")");
	}
}
