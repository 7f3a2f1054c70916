package io.infergate.routing.prefix;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Positive;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The {@link PrefixIndex}'s shape, under {@code infergate.scheduling.prefix}. Defaults are those of the GIE v1.0
 * prefix plugin.
 *
 * @param blockSizeChars prompt characters per block; default 64; at most 65,536
 * @param maxBlocks blocks hashed and matched per request, from the start of the prompt; default 256 (so the first
 * 16,384 characters count); at most 65,536 so the per-decision hash array stays small
 * @param lruCapacityPerEndpoint blocks remembered per endpoint before its least recently used ones are evicted;
 * default 31,250; at most 2^26 so one endpoint's tables stay within int indices
 */
@Validated
@ConfigurationProperties("infergate.scheduling.prefix")
public record PrefixIndexProperties(
		@DefaultValue("64") @Positive @Max(PrefixHasher.MAX_BLOCK_SIZE_CHARS) int blockSizeChars,
		@DefaultValue("256") @Positive @Max(65_536) int maxBlocks,
		@DefaultValue("31250") @Positive @Max(1 << 26) int lruCapacityPerEndpoint) {

	/** The GIE defaults: 64 characters per block, 256 blocks, 31,250 blocks per endpoint. */
	public static PrefixIndexProperties defaults() {
		return new PrefixIndexProperties(64, 256, 31_250);
	}
}
