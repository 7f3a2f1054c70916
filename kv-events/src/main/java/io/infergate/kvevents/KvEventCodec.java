package io.infergate.kvevents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;

/**
 * The msgpack payloads of vLLM's KV-event stream, in both of the layouts vLLM has used for its msgspec structs.
 * <ul>
 * <li><b>Current (maps):</b> the batch is a map {@code {ts, events, data_parallel_rank}} and each event a map keyed by
 * field name whose first entry is the type tag, {@code "type": "BlockStored"}. Fields without a default are always
 * written, null or not; optional fields ({@code extra_keys}, {@code group_idx}, {@code kv_cache_spec_kind},
 * {@code kv_cache_spec_sliding_window}, and the batch's {@code data_parallel_rank}) only when set.</li>
 * <li><b>Older ({@code array_like}):</b> structs are arrays in field order, a tagged one starting with its tag,
 * {@code ["BlockStored", block_hashes, parent_block_hash, token_ids, block_size, lora_id, ...]}, every field written
 * (msgspec ignores {@code omit_defaults} for arrays). Releases differ in how many fields follow the tag: the first
 * ended BlockStored at {@code lora_id} and BlockRemoved at {@code block_hashes}. Some mixed the two layouts (an array
 * batch of map events).</li>
 * </ul>
 * {@link #encode} writes the current layout, byte for byte as msgspec does; {@link #decode} reads either layout, per
 * struct. A block hash is read from an integer (signed or unsigned 64-bit) or, as vLLM sends it with
 * {@code VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES=0}, from the digest's bytes, of which the last 8 are read big-endian:
 * the same 64 bits vLLM sends as an integer otherwise. Unknown fields are skipped; events of an unknown type are
 * left out.
 */
public final class KvEventCodec {

	private static final String TYPE = "type";

	private static final byte UINT64 = (byte) 0xcf;

	private KvEventCodec() {
	}

	/** The batch in vLLM's current layout (maps keyed by field name). */
	public static byte[] encode(KvEventBatch batch) {
		return write(batch, false);
	}

	/**
	 * The batch in the older {@code array_like} layout (arrays in field order), with the fields of the last release
	 * that used it: BlockStored up to {@code group_idx}, BlockRemoved up to
	 * {@code group_idx}.
	 */
	public static byte[] encodeArrayLike(KvEventBatch batch) {
		return write(batch, true);
	}

	private static byte[] write(KvEventBatch batch, boolean arrayLike) {
		try (MessageBufferPacker out = MessagePack.newDefaultBufferPacker()) {
			boolean withRank = batch.dataParallelRank() != null;
			if (arrayLike) {
				out.packArrayHeader(withRank ? 3 : 2);
				out.packDouble(batch.ts());
			}
			else {
				out.packMapHeader(withRank ? 3 : 2);
				out.packString("ts").packDouble(batch.ts());
				out.packString("events");
			}
			out.packArrayHeader(batch.events().size());
			for (KvCacheEvent event : batch.events()) {
				if (arrayLike) {
					writeArrayLike(out, event);
				}
				else {
					writeMap(out, event);
				}
			}
			if (withRank) {
				if (!arrayLike) {
					out.packString("data_parallel_rank");
				}
				out.packInt(batch.dataParallelRank());
			}
			return out.toByteArray();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("msgpack encoding into memory failed", ex);
		}
	}

	private static void writeMap(MessagePacker out, KvCacheEvent event) throws IOException {
		if (event instanceof BlockStored stored) {
			out.packMapHeader(8 + (stored.extraKeys() != null ? 1 : 0) + (stored.groupIdx() != null ? 1 : 0));
			out.packString(TYPE).packString(BlockStored.TAG);
			out.packString("block_hashes");
			writeHashes(out, stored.blockHashes());
			out.packString("parent_block_hash");
			writeNullableHash(out, stored.parentBlockHash());
			out.packString("token_ids");
			writeTokens(out, stored.tokenIds());
			out.packString("block_size").packInt(stored.blockSize());
			out.packString("lora_id");
			writeNullable(out, stored.loraId());
			out.packString("medium");
			writeNullable(out, stored.medium());
			out.packString("lora_name");
			writeNullable(out, stored.loraName());
			if (stored.extraKeys() != null) {
				out.packString("extra_keys");
				writeValue(out, stored.extraKeys());
			}
			if (stored.groupIdx() != null) {
				out.packString("group_idx").packInt(stored.groupIdx());
			}
		}
		else if (event instanceof BlockRemoved removed) {
			out.packMapHeader(removed.groupIdx() != null ? 4 : 3);
			out.packString(TYPE).packString(BlockRemoved.TAG);
			out.packString("block_hashes");
			writeHashes(out, removed.blockHashes());
			out.packString("medium");
			writeNullable(out, removed.medium());
			if (removed.groupIdx() != null) {
				out.packString("group_idx").packInt(removed.groupIdx());
			}
		}
		else {
			out.packMapHeader(1);
			out.packString(TYPE).packString(event.tag());
		}
	}

	private static void writeArrayLike(MessagePacker out, KvCacheEvent event) throws IOException {
		if (event instanceof BlockStored stored) {
			out.packArrayHeader(10);
			out.packString(BlockStored.TAG);
			writeHashes(out, stored.blockHashes());
			writeNullableHash(out, stored.parentBlockHash());
			writeTokens(out, stored.tokenIds());
			out.packInt(stored.blockSize());
			writeNullable(out, stored.loraId());
			writeNullable(out, stored.medium());
			writeNullable(out, stored.loraName());
			writeValue(out, stored.extraKeys());
			writeNullable(out, stored.groupIdx());
		}
		else if (event instanceof BlockRemoved removed) {
			out.packArrayHeader(4);
			out.packString(BlockRemoved.TAG);
			writeHashes(out, removed.blockHashes());
			writeNullable(out, removed.medium());
			writeNullable(out, removed.groupIdx());
		}
		else {
			out.packArrayHeader(1);
			out.packString(event.tag());
		}
	}

	private static void writeHashes(MessagePacker out, long[] hashes) throws IOException {
		out.packArrayHeader(hashes.length);
		for (long hash : hashes) {
			writeHash(out, hash);
		}
	}

	private static void writeNullableHash(MessagePacker out, Long hash) throws IOException {
		if (hash == null) {
			out.packNil();
		}
		else {
			writeHash(out, hash);
		}
	}

	/**
	 * A hash as the unsigned integer vLLM sends: the smallest integer format, or msgpack's uint 64 when the top bit
	 * is set (which {@code packLong} would write as a negative int 64).
	 */
	private static void writeHash(MessagePacker out, long hash) throws IOException {
		if (hash >= 0) {
			out.packLong(hash);
			return;
		}
		byte[] uint64 = new byte[9];
		uint64[0] = UINT64;
		for (int i = 8; i >= 1; i--) {
			uint64[i] = (byte) hash;
			hash >>>= 8;
		}
		out.writePayload(uint64);
	}

	private static void writeTokens(MessagePacker out, int[] tokens) throws IOException {
		out.packArrayHeader(tokens.length);
		for (int token : tokens) {
			out.packInt(token);
		}
	}

	/** An extra key as msgspec writes it: a tuple or list as an array, bytes as bin. */
	private static void writeValue(MessagePacker out, Object value) throws IOException {
		if (value == null) {
			out.packNil();
		}
		else if (value instanceof String text) {
			out.packString(text);
		}
		else if (value instanceof Long || value instanceof Integer) {
			out.packLong(((Number) value).longValue());
		}
		else if (value instanceof Double number) {
			out.packDouble(number);
		}
		else if (value instanceof Boolean flag) {
			out.packBoolean(flag);
		}
		else if (value instanceof byte[] bytes) {
			out.packBinaryHeader(bytes.length);
			out.writePayload(bytes);
		}
		else if (value instanceof List<?> list) {
			out.packArrayHeader(list.size());
			for (Object item : list) {
				writeValue(out, item);
			}
		}
		else {
			throw new IllegalArgumentException("an extra key cannot be a " + value.getClass().getName());
		}
	}

	private static void writeNullable(MessagePacker out, Integer value) throws IOException {
		if (value == null) {
			out.packNil();
		}
		else {
			out.packInt(value);
		}
	}

	private static void writeNullable(MessagePacker out, String value) throws IOException {
		if (value == null) {
			out.packNil();
		}
		else {
			out.packString(value);
		}
	}

	/**
	 * Reads a batch in either layout.
	 * @throws KvEventFormatException if the payload is not a KV-event batch
	 */
	public static KvEventBatch decode(byte[] payload) {
		try (MessageUnpacker in = MessagePack.newDefaultUnpacker(payload)) {
			KvEventBatch batch = readBatch(in);
			if (in.hasNext()) {
				throw new KvEventFormatException("bytes left after the batch");
			}
			return batch;
		}
		catch (IOException | MessagePackException ex) {
			throw new KvEventFormatException("not a msgpack KV-event batch: " + ex.getMessage(), ex);
		}
	}

	private static KvEventBatch readBatch(MessageUnpacker in) throws IOException {
		ValueType type = in.getNextFormat().getValueType();
		Double ts = null;
		List<KvCacheEvent> events = null;
		Integer rank = null;
		if (type == ValueType.MAP) {
			int entries = in.unpackMapHeader();
			for (int i = 0; i < entries; i++) {
				String key = in.unpackString();
				switch (key) {
					case "ts" -> ts = readDouble(in);
					case "events" -> events = readEvents(in);
					case "data_parallel_rank" -> rank = readNullableInt(in);
					default -> in.skipValue();
				}
			}
		}
		else if (type == ValueType.ARRAY) {
			int items = in.unpackArrayHeader();
			if (items < 2) {
				throw new KvEventFormatException("an array batch needs ts and events, got " + items + " items");
			}
			ts = readDouble(in);
			events = readEvents(in);
			if (items > 2) {
				rank = readNullableInt(in);
			}
			skip(in, items - 3);
		}
		else {
			throw new KvEventFormatException("a batch is a map or an array, got " + type);
		}
		if (ts == null || events == null) {
			throw new KvEventFormatException("a batch needs 'ts' and 'events'");
		}
		return new KvEventBatch(ts, events, rank);
	}

	private static List<KvCacheEvent> readEvents(MessageUnpacker in) throws IOException {
		int count = in.unpackArrayHeader();
		List<KvCacheEvent> events = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			KvCacheEvent event = readEvent(in);
			if (event != null) {
				events.add(event);
			}
		}
		return events;
	}

	private static KvCacheEvent readEvent(MessageUnpacker in) throws IOException {
		ValueType type = in.getNextFormat().getValueType();
		EventFields fields = new EventFields();
		if (type == ValueType.MAP) {
			int entries = in.unpackMapHeader();
			for (int i = 0; i < entries; i++) {
				String key = in.unpackString();
				switch (key) {
					case TYPE -> fields.tag = in.unpackString();
					case "block_hashes" -> fields.blockHashes = readHashes(in);
					case "parent_block_hash" -> fields.parentBlockHash = readNullableHash(in);
					case "token_ids" -> fields.tokenIds = readTokens(in);
					case "block_size" -> fields.blockSize = readNullableInt(in);
					case "lora_id" -> fields.loraId = readNullableInt(in);
					case "medium" -> fields.medium = readNullableString(in);
					case "lora_name" -> fields.loraName = readNullableString(in);
					case "extra_keys" -> fields.extraKeys = readExtraKeys(in);
					case "group_idx" -> fields.groupIdx = readNullableInt(in);
					default -> in.skipValue();
				}
			}
		}
		else if (type == ValueType.ARRAY) {
			int items = in.unpackArrayHeader();
			if (items < 1) {
				throw new KvEventFormatException("an array event starts with its type tag");
			}
			fields.tag = in.unpackString();
			readPositional(in, fields, items - 1);
		}
		else {
			throw new KvEventFormatException("an event is a map or an array, got " + type);
		}
		return fields.build();
	}

	/** The fields after the tag of an array-layout event, in vLLM's declaration order. */
	private static void readPositional(MessageUnpacker in, EventFields fields, int items) throws IOException {
		int read = 0;
		switch (fields.tag == null ? "" : fields.tag) {
			case BlockStored.TAG -> {
				if (items < 4) {
					throw new KvEventFormatException("an array BlockStored needs block_hashes, parent_block_hash,"
							+ " token_ids and block_size, got " + items + " fields");
				}
				fields.blockHashes = readHashes(in);
				fields.parentBlockHash = readNullableHash(in);
				fields.tokenIds = readTokens(in);
				fields.blockSize = readNullableInt(in);
				read = 4;
				if (read < items) {
					fields.loraId = readNullableInt(in);
					read++;
				}
				if (read < items) {
					fields.medium = readNullableString(in);
					read++;
				}
				if (read < items) {
					fields.loraName = readNullableString(in);
					read++;
				}
				if (read < items) {
					fields.extraKeys = readExtraKeys(in);
					read++;
				}
				if (read < items) {
					fields.groupIdx = readNullableInt(in);
					read++;
				}
			}
			case BlockRemoved.TAG -> {
				if (items < 1) {
					throw new KvEventFormatException("an array BlockRemoved needs block_hashes");
				}
				fields.blockHashes = readHashes(in);
				read = 1;
				if (read < items) {
					fields.medium = readNullableString(in);
					read++;
				}
				if (read < items) {
					fields.groupIdx = readNullableInt(in);
					read++;
				}
			}
			default -> {
			}
		}
		skip(in, items - read);
	}

	private static void skip(MessageUnpacker in, int values) throws IOException {
		for (int i = 0; i < values; i++) {
			in.skipValue();
		}
	}

	private static long[] readHashes(MessageUnpacker in) throws IOException {
		int count = in.unpackArrayHeader();
		long[] hashes = new long[count];
		for (int i = 0; i < count; i++) {
			hashes[i] = readHash(in);
		}
		return hashes;
	}

	private static Long readNullableHash(MessageUnpacker in) throws IOException {
		return in.tryUnpackNil() ? null : readHash(in);
	}

	/** An integer hash as its 64 bits, or a digest's last 8 bytes read big-endian. */
	private static long readHash(MessageUnpacker in) throws IOException {
		MessageFormat format = in.getNextFormat();
		if (format == MessageFormat.UINT64) {
			return in.unpackBigInteger().longValue();
		}
		if (format.getValueType() == ValueType.INTEGER) {
			return in.unpackLong();
		}
		if (format.getValueType() == ValueType.BINARY) {
			byte[] digest = in.readPayload(in.unpackBinaryHeader());
			long hash = 0;
			for (int i = Math.max(0, digest.length - 8); i < digest.length; i++) {
				hash = (hash << 8) | (digest[i] & 0xff);
			}
			return hash;
		}
		throw new KvEventFormatException("a block hash is an integer or bytes, got " + format.getValueType());
	}

	private static int[] readTokens(MessageUnpacker in) throws IOException {
		int count = in.unpackArrayHeader();
		int[] tokens = new int[count];
		for (int i = 0; i < count; i++) {
			tokens[i] = in.unpackInt();
		}
		return tokens;
	}

	/** {@code extra_keys}: null, or one entry per block, each null or an array of keys. */
	private static List<List<Object>> readExtraKeys(MessageUnpacker in) throws IOException {
		if (in.tryUnpackNil()) {
			return null;
		}
		int count = in.unpackArrayHeader();
		List<List<Object>> keys = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			keys.add(in.tryUnpackNil() ? null : readList(in));
		}
		return keys;
	}

	private static List<Object> readList(MessageUnpacker in) throws IOException {
		int count = in.unpackArrayHeader();
		List<Object> values = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			values.add(readValue(in));
		}
		return values;
	}

	/** One extra key: a string, an integer, bytes, an array (a tuple), a float, a boolean or nil; a map is skipped. */
	private static Object readValue(MessageUnpacker in) throws IOException {
		MessageFormat format = in.getNextFormat();
		switch (format.getValueType()) {
			case NIL -> {
				in.unpackNil();
				return null;
			}
			case STRING -> {
				return in.unpackString();
			}
			case INTEGER -> {
				return (format == MessageFormat.UINT64) ? in.unpackBigInteger().longValue() : in.unpackLong();
			}
			case BINARY -> {
				return in.readPayload(in.unpackBinaryHeader());
			}
			case ARRAY -> {
				return readList(in);
			}
			case FLOAT -> {
				return in.unpackDouble();
			}
			case BOOLEAN -> {
				return in.unpackBoolean();
			}
			default -> {
				in.skipValue();
				return null;
			}
		}
	}

	private static double readDouble(MessageUnpacker in) throws IOException {
		return (in.getNextFormat().getValueType() == ValueType.INTEGER) ? in.unpackLong() : in.unpackDouble();
	}

	private static Integer readNullableInt(MessageUnpacker in) throws IOException {
		return in.tryUnpackNil() ? null : in.unpackInt();
	}

	private static String readNullableString(MessageUnpacker in) throws IOException {
		return in.tryUnpackNil() ? null : in.unpackString();
	}

	/** An event's fields as read, before its type is known to need them. */
	private static final class EventFields {

		String tag;

		long[] blockHashes;

		Long parentBlockHash;

		int[] tokenIds;

		Integer blockSize;

		Integer loraId;

		String medium;

		String loraName;

		Integer groupIdx;

		List<List<Object>> extraKeys;

		KvCacheEvent build() {
			if (tag == null) {
				throw new KvEventFormatException("an event without a type tag");
			}
			switch (tag) {
				case BlockStored.TAG -> {
					if (blockHashes == null || tokenIds == null || blockSize == null) {
						throw new KvEventFormatException("BlockStored needs block_hashes, token_ids and block_size");
					}
					return new BlockStored(blockHashes, parentBlockHash, tokenIds, blockSize, loraId, medium,
							loraName, groupIdx, extraKeys);
				}
				case BlockRemoved.TAG -> {
					if (blockHashes == null) {
						throw new KvEventFormatException("BlockRemoved needs block_hashes");
					}
					return new BlockRemoved(blockHashes, medium, groupIdx);
				}
				case AllBlocksCleared.TAG -> {
					return AllBlocksCleared.INSTANCE;
				}
				default -> {
					return null;
				}
			}
		}
	}
}
