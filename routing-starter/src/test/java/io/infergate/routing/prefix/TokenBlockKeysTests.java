package io.infergate.routing.prefix;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Keys chain from the parent and the block's tokens only, per adapter. */
class TokenBlockKeysTests {

	private static final int[] TOKENS = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };

	@Test
	void equalPrefixesHaveEqualKeysAndADifferentBlockChangesEveryKeyFromIt() {
		long[] keys = keys(TOKENS, null);
		int[] changed = TOKENS.clone();
		changed[5] = 99;
		long[] other = keys(changed, null);

		assertThat(keys).hasSize(3).doesNotContain(0L);
		assertThat(other[0]).isEqualTo(keys[0]);
		assertThat(other[1]).isNotEqualTo(keys[1]);
		assertThat(other[2]).isNotEqualTo(keys[2]);
	}

	@Test
	void aBlockIsKeyedFromItsParentAsInOneRun() {
		long[] keys = keys(TOKENS, "sql");
		long parent = TokenBlockKeys.next(TokenBlockKeys.root("sql"), TOKENS, 0, 4);

		assertThat(TokenBlockKeys.next(parent, TOKENS, 4, 4)).isEqualTo(keys[1]);
	}

	@Test
	void adaptersAndTheBaseModelNeverShareABlock() {
		assertThat(keys(TOKENS, "sql")[0]).isNotEqualTo(keys(TOKENS, null)[0]).isNotEqualTo(keys(TOKENS, "chat")[0]);
		assertThat(keys(TOKENS, "")).containsExactly(keys(TOKENS, null));
	}

	@Test
	void aCacheSaltChangesTheRootSoSaltedChainsMatchOnlyTheSameSalt() {
		long[] plain = keys(TOKENS, null);
		long[] salted = new long[3];
		TokenBlockKeys.keys(TOKENS, TOKENS.length, 4, null, "tenant-a", salted);
		long[] again = new long[3];
		TokenBlockKeys.keys(TOKENS, TOKENS.length, 4, null, "tenant-a", again);
		long[] other = new long[3];
		TokenBlockKeys.keys(TOKENS, TOKENS.length, 4, "sql", "tenant-a", other);

		assertThat(salted).containsExactly(again).doesNotContain(plain[0], plain[1], plain[2]);
		assertThat(other).doesNotContain(salted[0], salted[1], salted[2]);
		assertThat(TokenBlockKeys.root("sql", "tenant-a")).isNotEqualTo(TokenBlockKeys.root("sql", "tenant-b"))
			.isNotEqualTo(TokenBlockKeys.root("sql"));
		assertThat(TokenBlockKeys.root("sql", "")).isEqualTo(TokenBlockKeys.root("sql", null))
			.isEqualTo(TokenBlockKeys.root("sql"));
		assertThat(TokenBlockKeys.next(TokenBlockKeys.root(null, "tenant-a"), TOKENS, 0, 4)).isEqualTo(salted[0]);
	}

	@Test
	void onlyFullBlocksAreKeyedUpToTheOutputsLength() {
		long[] two = new long[2];
		assertThat(TokenBlockKeys.keys(TOKENS, 11, 4, null, new long[8])).isEqualTo(2);
		assertThat(TokenBlockKeys.keys(TOKENS, 12, 4, null, two)).isEqualTo(2);
		assertThat(two).containsExactly(Arrays.copyOf(keys(TOKENS, null), 2));
	}

	private static long[] keys(int[] tokens, String adapter) {
		long[] keys = new long[tokens.length];
		return Arrays.copyOf(keys, TokenBlockKeys.keys(tokens, tokens.length, 4, adapter, keys));
	}
}
