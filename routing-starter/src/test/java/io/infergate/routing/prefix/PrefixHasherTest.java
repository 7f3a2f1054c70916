package io.infergate.routing.prefix;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import org.junit.jupiter.api.Test;

import static io.infergate.routing.prefix.PrefixFixtures.MODEL;
import static io.infergate.routing.prefix.PrefixFixtures.diverging;
import static io.infergate.routing.prefix.PrefixFixtures.prompt;
import static org.assertj.core.api.Assertions.assertThat;

class PrefixHasherTest {

	private final PrefixHasher hasher = new PrefixHasher(64, 256);

	@Test
	void hashesTheDocumentedChain() {
		String text = prompt("doc", 2);
		Hasher64 xxh3 = Hashing.xxh3_64();
		long seed = xxh3.hashLongLongToLong(xxh3.hashCharsToLong(MODEL), xxh3.hashCharsToLong("lora-a"));
		long block0 = xxh3.hashLongLongToLong(seed, xxh3.hashCharsToLong(text.substring(0, 64)));
		long block1 = xxh3.hashLongLongToLong(block0, xxh3.hashCharsToLong(text.substring(64, 128)));

		PrefixHashes hashes = hasher.hash(MODEL, "lora-a", text);

		assertThat(hashes.blockCount()).isEqualTo(2);
		assertThat(hashes.hash(0)).isEqualTo(block0);
		assertThat(hashes.hash(1)).isEqualTo(block1);
	}

	@Test
	void hashesLongMixedScriptPromptsAsTheDocumentedChainWhateverTheBlockSize() {
		StringBuilder text = new StringBuilder();
		for (int i = 0; text.length() < 20_000; i++) {
			text.append("turn ").append(i).append(": données, 数据, данные, \uD83D\uDE80 ");
		}
		for (int blockSize : new int[] { 64, 100, 5_000 }) {
			PrefixHasher sized = new PrefixHasher(blockSize, 256);

			PrefixHashes hashes = sized.hash(MODEL, "lora-a", text.toString());

			long[] expected = documentedChain(MODEL, "lora-a", text.toString(), blockSize, 256);
			assertThat(hashes.blockCount()).isEqualTo(expected.length);
			for (int i = 0; i < expected.length; i++) {
				assertThat(hashes.hash(i)).as("block %d of %d-char blocks", i, blockSize).isEqualTo(expected[i]);
			}
		}
	}

	@Test
	void charsDifferingOnlyInTheirHighByteHashDifferently() {
		String latin = "\u00e9".repeat(64);
		String other = "\u01e9".repeat(64);

		assertThat(hasher.hash(MODEL, null, latin).hash(0)).isNotEqualTo(hasher.hash(MODEL, null, other).hash(0));
	}

	@Test
	void ignoresATrailingPartialBlock() {
		PrefixHashes full = hasher.hash(MODEL, null, prompt("p", 3));
		PrefixHashes withTail = hasher.hash(MODEL, null, prompt("p", 3) + "t".repeat(63));

		assertThat(withTail.blockCount()).isEqualTo(3);
		for (int i = 0; i < 3; i++) {
			assertThat(withTail.hash(i)).isEqualTo(full.hash(i));
		}
	}

	@Test
	void promptShorterThanOneBlockHasNoBlocks() {
		assertThat(hasher.hash(MODEL, null, "x".repeat(63)).blockCount()).isZero();
		assertThat(hasher.hash(MODEL, null, "").blockCount()).isZero();
		assertThat(hasher.hash(MODEL, null, null).blockCount()).isZero();
	}

	@Test
	void hashesAtMostMaxBlocks() {
		PrefixHasher fourBlocks = new PrefixHasher(64, 4);

		PrefixHashes capped = fourBlocks.hash(MODEL, null, prompt("p", 10));

		assertThat(capped.blockCount()).isEqualTo(4);
		PrefixHashes exact = fourBlocks.hash(MODEL, null, prompt("p", 4));
		for (int i = 0; i < 4; i++) {
			assertThat(capped.hash(i)).isEqualTo(exact.hash(i));
		}
	}

	@Test
	void aPromptDifferingAtBlockKSharesExactlyItsFirstKHashes() {
		PrefixHashes original = hasher.hash(MODEL, null, prompt("p", 6));
		// blocks 3..5 differ; block 4 is then made equal again, which must not help: the chain has diverged
		String text = diverging("p", 3, 6);
		String rejoined = text.substring(0, 4 * 64) + prompt("p", 6).substring(4 * 64, 5 * 64) + text.substring(5 * 64);

		PrefixHashes changed = hasher.hash(MODEL, null, rejoined);

		for (int i = 0; i < 3; i++) {
			assertThat(changed.hash(i)).isEqualTo(original.hash(i));
		}
		for (int i = 3; i < 6; i++) {
			assertThat(changed.hash(i)).isNotEqualTo(original.hash(i));
		}
	}

	@Test
	void anotherAdapterOrModelChangesEveryBlock() {
		String text = prompt("p", 4);
		PrefixHashes base = hasher.hash(MODEL, null, text);
		PrefixHashes adapter = hasher.hash(MODEL, "support-lora", text);
		PrefixHashes model = hasher.hash("other-model", null, text);

		for (int i = 0; i < 4; i++) {
			assertThat(adapter.hash(i)).isNotEqualTo(base.hash(i));
			assertThat(model.hash(i)).isNotEqualTo(base.hash(i)).isNotEqualTo(adapter.hash(i));
		}
	}

	@Test
	void noAdapterAndAnEmptyAdapterAreTheSame() {
		String text = prompt("p", 2);

		assertThat(hasher.hash(MODEL, "", text).hash(1)).isEqualTo(hasher.hash(MODEL, null, text).hash(1));
	}

	/** The chain as the class documents it, hashing each block's chars as a String. */
	private static long[] documentedChain(String model, String adapter, String text, int blockSize, int maxBlocks) {
		Hasher64 xxh3 = Hashing.xxh3_64();
		long parent = xxh3.hashLongLongToLong(xxh3.hashCharsToLong(model), xxh3.hashCharsToLong(adapter));
		long[] chain = new long[Math.min(text.length() / blockSize, maxBlocks)];
		for (int i = 0; i < chain.length; i++) {
			parent = xxh3.hashLongLongToLong(parent,
					xxh3.hashCharsToLong(text.substring(i * blockSize, (i + 1) * blockSize)));
			chain[i] = parent;
		}
		return chain;
	}

	@Test
	void modelAndAdapterBoundariesDoNotBlur() {
		assertThat(PrefixHasher.seed("ab", "c")).isNotEqualTo(PrefixHasher.seed("a", "bc"));
	}
}
