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
 */
public record TokenizerSettings(String path, String chatTemplate, String type, @DefaultValue("16MB") DataSize cache) {

	public TokenizerSettings {
		cache = (cache != null) ? cache : DataSize.ofBytes(ModelTokenizer.DEFAULT_CACHE_BYTES);
		if (cache.isNegative()) {
			throw new IllegalArgumentException("cache: must not be negative");
		}
	}

	/** The type's name, {@code huggingface} when unset. */
	public String typeName() {
		return (type != null && !type.isBlank()) ? type : HuggingFaceTokenizerType.NAME;
	}
}
