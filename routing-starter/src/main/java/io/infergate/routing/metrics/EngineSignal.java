package io.infergate.routing.metrics;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The engine figures Infergate reads from a model server, by the key used in a pool's {@code metric-overrides}.
 * The meaning and type of each is fixed; where it is read from is up to the {@link EngineMapping}.
 */
public enum EngineSignal {

	/** Requests queued in the engine. Required. */
	WAITING_REQUESTS("waiting-requests", true),

	/** Requests in the running batch. Required. */
	RUNNING_REQUESTS("running-requests", true),

	/** Fraction of KV-cache blocks in use, 0..1. Required. */
	KV_CACHE_USAGE("kv-cache-usage", true),

	/** Tokens per KV-cache block; the configured default when absent. */
	BLOCK_SIZE("block-size", false),

	/** KV-cache blocks in all; the configured default when absent. */
	NUM_GPU_BLOCKS("num-gpu-blocks", false),

	/**
	 * An info series whose value is a timestamp and whose labels {@code max_lora}, {@code running_lora_adapters}
	 * and {@code waiting_lora_adapters} describe LoRA use. Optional: no LoRA when absent.
	 */
	LORA_INFO("lora-info", false);

	private final String key;

	private final boolean required;

	EngineSignal(String key, boolean required) {
		this.key = key;
		this.required = required;
	}

	/** The configuration key, e.g. {@code waiting-requests}. */
	public String key() {
		return key;
	}

	/** Whether a scrape without this signal fails, rather than routing on a guess. */
	public boolean required() {
		return required;
	}

	/**
	 * The signal with this configuration key.
	 * @throws IllegalArgumentException listing the valid keys
	 */
	public static EngineSignal forKey(String key) {
		for (EngineSignal signal : values()) {
			if (signal.key.equals(key)) {
				return signal;
			}
		}
		throw new IllegalArgumentException("unknown engine signal '" + key + "'; valid signals are "
				+ Arrays.stream(values()).map(EngineSignal::key).collect(Collectors.joining(", ")));
	}
}
