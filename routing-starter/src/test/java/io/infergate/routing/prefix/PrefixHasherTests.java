package io.infergate.routing.prefix;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import org.junit.jupiter.api.Test;

import static io.infergate.routing.prefix.PrefixFixtures.MODEL;
import static io.infergate.routing.prefix.PrefixFixtures.diverging;
import static io.infergate.routing.prefix.PrefixFixtures.prompt;
import static org.assertj.core.api.Assertions.assertThat;

class PrefixHasherTests {

	private final PrefixHasher hasher = new PrefixHasher(64, 256);

	// Expected hashes come from another XXH3 implementation: src/test/resources/prefix/prefix_hash_vectors.py, run
	// with the Python xxhash package 4.0.1 (the reference C library, 0.8.3) by
	// `pip install xxhash==4.0.1 && python3 prefix_hash_vectors.py`, which first checks that library against the
	// published vectors below.

	@Test
	void xxh3OfThePublishedInputsIsThePublishedValue() {
		Hasher64 xxh3 = Hashing.xxh3_64();
		byte[] llvm = llvmBuffer(2243);

		// the empty input: xxHash's cli/xsum_sanity_check.c
		assertThat(xxh3.hashBytesToLong(new byte[0])).isEqualTo(0x2D06800538D394C2L);
		// LLVM's llvm/unittests/Support/xxhashTest.cpp (its own port of XXH3): 16 bytes, the length of the two
		// longs each chain step hashes; 128 bytes, one 64-char block; and the other input-length classes
		assertThat(xxh3.hashBytesToLong(llvm, 0, 16)).isEqualTo(0x7E46916754D7C9B8L);
		assertThat(xxh3.hashBytesToLong(llvm, 0, 17)).isEqualTo(0xED4BE912BA5F836DL);
		assertThat(xxh3.hashBytesToLong(llvm, 0, 128)).isEqualTo(0x06A146EE9A2DA378L);
		assertThat(xxh3.hashBytesToLong(llvm, 0, 129)).isEqualTo(0xBC7138129BF065DAL);
		assertThat(xxh3.hashBytesToLong(llvm, 0, 403)).isEqualTo(0xCEFEB3FFA532AD8CL);
		assertThat(xxh3.hashBytesToLong(llvm, 0, 2243)).isEqualTo(0x0979F786A24EDDE7L);
	}

	@Test
	void hashesTheDocumentedChain() {
		PrefixHashes hashes = hasher.hash(MODEL, "lora-a", prompt("doc", 2));

		// prefix_hash_vectors.py: "doc chain"
		assertThat(hashes.blockCount()).isEqualTo(2);
		assertThat(hashes.hash(0)).isEqualTo(0x74F51BFF961B030FL);
		assertThat(hashes.hash(1)).isEqualTo(0x3B79F78F99928033L);
	}

	@Test
	void eachBlocksHashIsXxh3OfItsParentsHashAndItsOwnCharsHash() {
		// built by hand from XXH3 of bytes, which the published vectors above pin
		Hasher64 xxh3 = Hashing.xxh3_64();
		String text = prompt("doc", 3);
		long seed = xxh3.hashBytesToLong(littleEndian(xxh3.hashBytesToLong(utf16le(MODEL)),
				xxh3.hashBytesToLong(utf16le("lora-a"))));

		PrefixHashes hashes = hasher.hash(MODEL, "lora-a", text);

		assertThat(PrefixHasher.seed(MODEL, "lora-a")).isEqualTo(seed).isEqualTo(0xF444EEA414596896L);
		long parent = seed;
		for (int i = 0; i < 3; i++) {
			long content = xxh3.hashBytesToLong(utf16le(text.substring(i * 64, (i + 1) * 64)));
			parent = xxh3.hashBytesToLong(littleEndian(parent, content));
			assertThat(hashes.hash(i)).as("block %d", i).isEqualTo(parent);
		}
	}

	@Test
	void hashesLongMixedScriptPromptsAsTheDocumentedChainWhateverTheBlockSize() {
		StringBuilder text = new StringBuilder();
		for (int i = 0; text.length() < 20_000; i++) {
			text.append("turn ").append(i).append(": données, 数据, данные, \uD83D\uDE80 ");
		}
		// prefix_hash_vectors.py: "mixed", block size, block count, then the first, second and last block's hash
		long[][] expected = { { 64, 256, 0xC52CDAB7844ACBECL, 0x25611993C44E6EC7L, 0x58C0784759BCC6E0L },
				{ 100, 200, 0x68993EEF37C3D50CL, 0x72C861B35A546E50L, 0x8752EBF8D55D6C2DL },
				{ 5_000, 4, 0xA63EF6D4AF7079D1L, 0xCD1A5EAF14F8AD0CL, 0xC9E6CC63CD1B73E1L } };
		for (long[] sized : expected) {
			int blockSize = (int) sized[0];

			PrefixHashes hashes = new PrefixHasher(blockSize, 256).hash(MODEL, "lora-a", text.toString());

			assertThat(hashes.blockCount()).as("%d-char blocks", blockSize).isEqualTo(sized[1]);
			assertThat(hashes.hash(0)).as("first %d-char block", blockSize).isEqualTo(sized[2]);
			assertThat(hashes.hash(1)).as("second %d-char block", blockSize).isEqualTo(sized[3]);
			assertThat(hashes.hash(hashes.blockCount() - 1)).as("last %d-char block", blockSize).isEqualTo(sized[4]);
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

	/** LLVM's xxhashTest buffer: byte i is the low byte of the (i+1)-th step of a 64-bit xorshift from 1. */
	private static byte[] llvmBuffer(int size) {
		byte[] buffer = new byte[size];
		long x = 1;
		for (int i = 0; i < size; i++) {
			x ^= x << 13;
			x ^= x >>> 7;
			x ^= x << 17;
			buffer[i] = (byte) x;
		}
		return buffer;
	}

	private static byte[] utf16le(String text) {
		return text.getBytes(StandardCharsets.UTF_16LE);
	}

	private static byte[] littleEndian(long first, long second) {
		return ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(first).putLong(second).array();
	}

	@Test
	void modelAndAdapterBoundariesDoNotBlur() {
		assertThat(PrefixHasher.seed("ab", "c")).isNotEqualTo(PrefixHasher.seed("a", "bc"));
	}
}
