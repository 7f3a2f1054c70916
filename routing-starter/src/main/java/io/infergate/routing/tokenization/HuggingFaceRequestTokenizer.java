package io.infergate.routing.tokenization;

import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.openai.PromptTokens;
import io.infergate.tokenizers.ModelTokenizer;

/**
 * A Hugging Face tokenizer and chat template ({@link ModelTokenizer}) applied to the request's body as vLLM applies
 * them ({@link io.infergate.routing.openai.PromptSource}): the default type, {@code tokenizer.path}.
 */
public final class HuggingFaceRequestTokenizer implements RequestTokenizer, AutoCloseable {

	private final ModelTokenizer tokenizer;

	public HuggingFaceRequestTokenizer(ModelTokenizer tokenizer) {
		this.tokenizer = tokenizer;
	}

	@Override
	public PromptTokens tokenize(ParsedRequest parsed) throws InvalidRequestException {
		return (parsed.source() != null) ? parsed.source().exactTokens(tokenizer) : null;
	}

	@Override
	public boolean tokenizeCheaply(ParsedRequest parsed) {
		return parsed.source() == null || parsed.source().exactTokensIfCached(tokenizer);
	}

	@Override
	public String describe() {
		return tokenizer.file().toString();
	}

	@Override
	public boolean costly() {
		return true;
	}

	@Override
	public ModelTokenizer modelTokenizer() {
		return tokenizer;
	}

	@Override
	public ModelTokenizer.CacheStatistics cacheStatistics() {
		return tokenizer.cacheStatistics();
	}

	@Override
	public void close() {
		tokenizer.close();
	}
}
