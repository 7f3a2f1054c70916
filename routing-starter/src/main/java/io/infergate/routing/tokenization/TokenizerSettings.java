package io.infergate.routing.tokenization;

/**
 * A model's tokenizer, {@code infergate.models.<m>.tokenizer} or {@code infergate.pools.<p>.tokenizer}.
 *
 * @param path A Hugging Face {@code tokenizer.json}, or the directory holding it with its
 * {@code tokenizer_config.json} (the model's files as vLLM loads them).
 * @param chatTemplate A Jinja chat template file to use instead of the one in {@code tokenizer_config.json} (or
 * {@code chat_template.jinja}) beside the tokenizer.
 * @param type The {@link TokenizerType} that reads these settings: {@code huggingface} (the default) or
 * {@code simulator} (the simulated pods' own tokenization, no files).
 */
public record TokenizerSettings(String path, String chatTemplate, String type) {

	/** The type's name, {@code huggingface} when unset. */
	public String typeName() {
		return (type != null && !type.isBlank()) ? type : HuggingFaceTokenizerType.NAME;
	}
}
