package io.infergate.routing.prefix;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Positive;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The {@link EngineBlockIndex}'s shape and how much of a prompt is matched against it, under
 * {@code infergate.scheduling.engine-blocks}.
 *
 * @param maxBlocks engine blocks tokenized, hashed and matched per request, from the start of the prompt; default 256
 * (4,096 tokens at vLLM's 16 tokens per block, about the 16,384 characters the approximate index reads); at most
 * 65,536
 * @param capacityPerEndpoint block hashes kept per endpoint; default 65,536, above the 29,000 blocks an 8B model gets
 * on one 80 GB GPU; set it at or above the engines' {@code num_gpu_blocks}; at most 2^26
 */
@Validated
@ConfigurationProperties("infergate.scheduling.engine-blocks")
public record EngineBlockIndexProperties(@DefaultValue("256") @Positive @Max(65_536) int maxBlocks,
		@DefaultValue("65536") @Positive @Max(1 << 26) int capacityPerEndpoint) {

	public static EngineBlockIndexProperties defaults() {
		return new EngineBlockIndexProperties(256, 65_536);
	}
}
