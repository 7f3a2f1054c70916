package io.infergate.kvevents;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The codec against payloads that msgspec itself wrote from vLLM's event classes
 * ({@code src/test/resources/vllm-fixtures/generate_fixtures.py}): every layout decodes to the same events, and the
 * encoder writes the current and the array layouts byte for byte as msgspec does.
 */
class KvEventCodecTests {

	private static final double TS = 1767225600.25;

	private static final long HIGH = 0xFEDCBA9876543210L;

	private static final long LOW = 0x123456789ABCDEF0L;

	private static final BlockStored FIRST_BLOCKS = new BlockStored(new long[] { LOW, HIGH }, null, tokens(1, 33), 16,
			null, "GPU", null, null);

	private static final BlockStored ADAPTER_BLOCK = new BlockStored(new long[] { 7 }, HIGH, tokens(100, 116), 16, 1,
			"GPU", "sql", null);

	private static final BlockRemoved REMOVED = new BlockRemoved(new long[] { HIGH }, "GPU", null);

	@Test
	void currentLayoutDecodesToEveryEventAndField() {
		KvEventBatch batch = KvEventCodec.decode(fixture("current.msgpack"));

		assertThat(batch).isEqualTo(new KvEventBatch(TS, List.of(FIRST_BLOCKS,
				new BlockStored(new long[] { 7 }, HIGH, tokens(100, 116), 16, 1, "GPU", "sql", 0), REMOVED,
				AllBlocksCleared.INSTANCE), 0));
	}

	@Test
	void encoderWritesTheCurrentLayoutByteForByteAsMsgspec() {
		KvEventBatch batch = new KvEventBatch(TS, List.of(FIRST_BLOCKS,
				new BlockStored(new long[] { 7 }, HIGH, tokens(100, 116), 16, 1, "GPU", "sql", 0), REMOVED,
				AllBlocksCleared.INSTANCE), 0);

		assertThat(KvEventCodec.encode(batch)).isEqualTo(fixture("current.msgpack"));
	}

	@Test
	void encoderWritesTheArrayLayoutByteForByteAsMsgspec() {
		KvEventBatch batch = new KvEventBatch(TS, List.of(FIRST_BLOCKS, ADAPTER_BLOCK, REMOVED,
				AllBlocksCleared.INSTANCE), 0);

		assertThat(KvEventCodec.encodeArrayLike(batch)).isEqualTo(fixture("array-with-medium.msgpack"));
	}

	@Test
	void optionalFieldsAreReadOrSkipped() {
		KvEventBatch batch = KvEventCodec.decode(fixture("current-optional-fields.msgpack"));

		assertThat(batch).isEqualTo(new KvEventBatch(TS, List.of(
				new BlockStored(new long[] { LOW }, null, tokens(0, 16), 16, null, "GPU", null, 1,
						List.of(List.of("sql", 3L))),
				new BlockRemoved(new long[] { LOW }, "GPU", 1)), null));
	}

	@Test
	void extraKeysRoundTripInBothLayouts() {
		List<List<Object>> extraKeys = new java.util.ArrayList<>();
		extraKeys.add(List.of("sql", List.of("image-1", 8L), "tenant-a"));
		extraKeys.add(null);
		extraKeys.add(List.of("sql"));
		KvEventBatch batch = new KvEventBatch(12.5, List.of(new BlockStored(new long[] { 1, 2, 3 }, null,
				tokens(0, 48), 16, 1, "GPU", "sql", null, extraKeys)), null);

		assertThat(KvEventCodec.decode(KvEventCodec.encode(batch))).isEqualTo(batch);
		assertThat(KvEventCodec.decode(KvEventCodec.encodeArrayLike(batch))).isEqualTo(batch);
	}

	@Test
	void cacheSaltIsTheFirstBlocksStringKeyAfterTheAdaptersName() {
		assertThat(salted(null, List.of("tenant-a")).cacheSalt()).isEqualTo("tenant-a");
		assertThat(salted("sql", List.of("sql", "tenant-a")).cacheSalt()).isEqualTo("tenant-a");
		assertThat(salted("sql", List.of("sql", List.of("image-1", 0L), "tenant-a", new byte[] { 1 })).cacheSalt())
			.isEqualTo("tenant-a");
		assertThat(salted("sql", List.of("sql")).cacheSalt()).isNull();
		assertThat(salted(null, List.of(List.of("image-1", 0L))).cacheSalt()).isNull();
		BlockStored noKeys = new BlockStored(new long[] { 1 }, null, tokens(0, 16), 16, null, "GPU", null, null);
		assertThat(noKeys.cacheSalt()).isNull();
		BlockStored extending = new BlockStored(new long[] { 2 }, 1L, tokens(16, 32), 16, null, "GPU", null, null,
				List.of(List.of("tenant-a")));
		assertThat(extending.cacheSalt()).as("only a prompt's first block carries the salt").isNull();
	}

	private static BlockStored salted(String adapter, List<Object> firstBlockKeys) {
		return new BlockStored(new long[] { 1 }, null, tokens(0, 16), 16, null, "GPU", adapter, null,
				List.of(firstBlockKeys));
	}

	@Test
	void digestHashesAreReadAsTheirLastEightBytesBigEndian() {
		KvEventBatch batch = KvEventCodec.decode(fixture("current-bytes-hashes.msgpack"));

		long block0 = lastEightBytes(sha256("block-0"));
		long block1 = lastEightBytes(sha256("block-1"));
		assertThat(batch.events()).containsExactly(
				new BlockStored(new long[] { block0, block1 }, null, tokens(0, 32), 16, null, "GPU", null, null),
				new BlockRemoved(new long[] { block1 }, "GPU", null));
	}

	@Test
	void arrayBatchOfMapEventsDecodes() {
		KvEventBatch batch = KvEventCodec.decode(fixture("mixed-array-batch.msgpack"));

		assertThat(batch).isEqualTo(new KvEventBatch(TS, List.of(FIRST_BLOCKS, REMOVED, AllBlocksCleared.INSTANCE), 0));
	}

	@Test
	void firstReleaseArrayLayoutDecodesWithoutMediumOrRank() {
		KvEventBatch batch = KvEventCodec.decode(fixture("array-first-release.msgpack"));

		assertThat(batch).isEqualTo(new KvEventBatch(TS, List.of(
				new BlockStored(new long[] { LOW, HIGH }, null, tokens(1, 33), 16, null, null, null, null),
				new BlockRemoved(new long[] { HIGH }, null, null), AllBlocksCleared.INSTANCE), null));
	}

	@Test
	void arrayLayoutWithMediumDecodes() {
		KvEventBatch batch = KvEventCodec.decode(fixture("array-with-medium.msgpack"));

		assertThat(batch).isEqualTo(new KvEventBatch(TS, List.of(FIRST_BLOCKS, ADAPTER_BLOCK, REMOVED,
				AllBlocksCleared.INSTANCE), 0));
	}

	@Test
	void bothLayoutsRoundTripEveryField() {
		KvEventBatch batch = new KvEventBatch(12.5, List.of(
				new BlockStored(new long[] { -1L, 0, Long.MIN_VALUE, 42 }, Long.MAX_VALUE, tokens(0, 64), 16, 3,
						"GPU", "chat", 2),
				new BlockRemoved(new long[] { -1L }, null, 2), AllBlocksCleared.INSTANCE), 3);

		assertThat(KvEventCodec.decode(KvEventCodec.encode(batch))).isEqualTo(batch);
		assertThat(KvEventCodec.decode(KvEventCodec.encodeArrayLike(batch))).isEqualTo(batch);
	}

	@Test
	void eventsOfUnknownTypesAreLeftOut() {
		byte[] payload = bytes(0x82, 0xa2, 't', 's', 0x01, 0xa6, 'e', 'v', 'e', 'n', 't', 's', 0x92,
				0x81, 0xa4, 't', 'y', 'p', 'e', 0xa3, 'N', 'e', 'w',
				0x81, 0xa4, 't', 'y', 'p', 'e', 0xb0, 'A', 'l', 'l', 'B', 'l', 'o', 'c', 'k', 's', 'C', 'l', 'e', 'a',
				'r', 'e', 'd');

		assertThat(KvEventCodec.decode(payload)).isEqualTo(new KvEventBatch(1, List.of(AllBlocksCleared.INSTANCE),
				null));
	}

	@Test
	void malformedPayloadsAreRefusedWithAFormatError() {
		assertThatThrownBy(() -> KvEventCodec.decode(bytes(0xc1))).isInstanceOf(KvEventFormatException.class);
		assertThatThrownBy(() -> KvEventCodec.decode(bytes(0x05))).isInstanceOf(KvEventFormatException.class)
			.hasMessageContaining("map or an array");
		assertThatThrownBy(() -> KvEventCodec.decode(bytes(0x91, 0x01))).isInstanceOf(KvEventFormatException.class)
			.hasMessageContaining("ts and events");
		byte[] truncated = fixture("current.msgpack");
		assertThatThrownBy(() -> KvEventCodec.decode(java.util.Arrays.copyOf(truncated, truncated.length - 5)))
			.isInstanceOf(KvEventFormatException.class);
	}

	@Test
	void sequenceFramesAreEightBytesBigEndian() {
		assertThat(KvEventFrames.sequenceBytes(0x0102030405060708L)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
		assertThat(KvEventFrames.sequenceBytes(KvEventFrames.END_OF_REPLAY)).containsOnly(0xff);
		assertThat(KvEventFrames.sequence(KvEventFrames.sequenceBytes(123_456_789_012L))).isEqualTo(123_456_789_012L);
		assertThatThrownBy(() -> KvEventFrames.sequence(new byte[4])).isInstanceOf(KvEventFormatException.class);
	}

	private static int[] tokens(int from, int to) {
		return IntStream.range(from, to).toArray();
	}

	private static byte[] bytes(int... values) {
		byte[] bytes = new byte[values.length];
		for (int i = 0; i < values.length; i++) {
			bytes[i] = (byte) values[i];
		}
		return bytes;
	}

	private static byte[] fixture(String name) {
		try (InputStream in = KvEventCodecTests.class.getResourceAsStream("/vllm-fixtures/" + name)) {
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static byte[] sha256(String text) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.US_ASCII));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static long lastEightBytes(byte[] digest) {
		long value = 0;
		for (int i = digest.length - 8; i < digest.length; i++) {
			value = (value << 8) | (digest[i] & 0xff);
		}
		return value;
	}
}
