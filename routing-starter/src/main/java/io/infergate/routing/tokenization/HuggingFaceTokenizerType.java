package io.infergate.routing.tokenization;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

import io.infergate.tokenizers.ModelTokenizer;
import io.infergate.tokenizers.TokenizerException;

/** {@code tokenizer.type: huggingface} (the default): {@code path} and {@code chat-template} name the model's files. */
public final class HuggingFaceTokenizerType implements TokenizerType {

	public static final String NAME = "huggingface";

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public RequestTokenizer create(TokenizerSettings settings) {
		if (settings.path() == null || settings.path().isBlank()) {
			throw new IllegalArgumentException("path: required (a tokenizer.json, or the directory holding it)");
		}
		Path template;
		try {
			template = (settings.chatTemplate() != null) ? Path.of(settings.chatTemplate()) : null;
		}
		catch (InvalidPathException ex) {
			throw new IllegalArgumentException("chat-template: " + ex.getMessage());
		}
		try {
			return new HuggingFaceRequestTokenizer(ModelTokenizer.load(Path.of(settings.path()), template,
					settings.cache().toBytes()));
		}
		catch (InvalidPathException ex) {
			throw new IllegalArgumentException("path: " + ex.getMessage());
		}
		catch (TokenizerException ex) {
			boolean atTemplate = settings.chatTemplate() != null && ex.getMessage().contains(settings.chatTemplate());
			throw new IllegalArgumentException((atTemplate ? "chat-template: " : "path: ") + ex.getMessage());
		}
	}
}
