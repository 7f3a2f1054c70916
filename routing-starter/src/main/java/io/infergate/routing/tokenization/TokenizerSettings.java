package io.infergate.routing.tokenization;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import io.infergate.tokenizers.ModelTokenizer;

/**
 * A model's tokenizer, {@code infergate.models.<m>.tokenizer} or {@code infergate.pools.<p>.tokenizer}.
 *
 * @param path A Hugging Face {@code tokenizer.json}, or the directory holding it with its
 * {@code tokenizer_config.json} (the model's files as vLLM loads them).
 * @param chatTemplate A Jinja chat template file to use instead of the one in {@code tokenizer_config.json} (or
 * {@code chat_template.jinja}) beside the tokenizer.
 * @param type The {@link TokenizerType} that reads these settings: {@code huggingface} (the default) or
 * {@code simulator} (the simulated pods' own tokenization, no files).
 * @param cache How much memory the cache of encoded stretches of chats may hold (the text between two of the
 * tokenizer's special tokens: system prompts and earlier turns, which requests repeat); {@code 0} turns it off.
 * @param routingTokens The most leading token ids of a prompt that routing uses (the prefix indexes' blocks, the
 * {@code precise-prefix} scorer): the whole prompt is still tokenized and counted for limits, lanes and metrics, but
 * a request keeps only these ids while it is in flight. At least {@value #MIN_ROUTING_TOKENS}; the default, 16,384,
 * covers the indexes' default depth of 256 blocks at engine block sizes up to 64.
 */
public record TokenizerSettings(String path, String chatTemplate, String type, @DefaultValue("16MB") DataSize cache,
		@DefaultValue("16384") Integer routingTokens) {

	/** The smallest {@code routing-tokens}: one block at vLLM's default block size. */
	public static final int MIN_ROUTING_TOKENS = 16;

	public static final int DEFAULT_ROUTING_TOKENS = 16_384;

	public TokenizerSettings {
		cache = (cache != null) ? cache : DataSize.ofBytes(ModelTokenizer.DEFAULT_CACHE_BYTES);
		if (cache.isNegative()) {
			throw new IllegalArgumentException("cache: must not be negative");
		}
		routingTokens = (routingTokens != null) ? routingTokens : DEFAULT_ROUTING_TOKENS;
		if (routingTokens < MIN_ROUTING_TOKENS) {
			throw new IllegalArgumentException("routing-tokens: must be at least " + MIN_ROUTING_TOKENS + ", got "
					+ routingTokens);
		}
	}

	/** These settings as far as the tokenizer itself goes: two that differ only in {@code routing-tokens} share one. */
	TokenizerSettings tokenizerOnly() {
		return new TokenizerSettings(path, chatTemplate, type, cache, DEFAULT_ROUTING_TOKENS);
	}

	/** The type's name, {@code huggingface} when unset. */
	public String typeName() {
		return (type != null && !type.isBlank()) ? type : HuggingFaceTokenizerType.NAME;
	}
}
