package io.infergate.routing.tokenization;

/** {@code tokenizer.type: simulator}: {@link SimulatorRequestTokenizer}; takes no files. */
public final class SimulatorTokenizerType implements TokenizerType {

	@Override
	public String name() {
		return SimulatorRequestTokenizer.TYPE;
	}

	@Override
	public RequestTokenizer create(TokenizerSettings settings) {
		if (settings.path() != null || settings.chatTemplate() != null) {
			throw new IllegalArgumentException("path: the simulator's tokenizer takes no files");
		}
		return new SimulatorRequestTokenizer();
	}
}
