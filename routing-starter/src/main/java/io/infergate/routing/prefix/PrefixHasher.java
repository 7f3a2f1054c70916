package io.infergate.routing.prefix;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.IntBuffer;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;

/**
 * Cuts a prompt into blocks of {@code blockSizeChars} characters and hashes them as a chain (GIE proposal 0602, llm-d
 * prefix plugin):
 * <pre>
 * h(−1) = XXH3(XXH3(targetModel), XXH3(adapter))
 * h(i)  = XXH3(h(i−1), XXH3(chars of block i))       for i = 0 .. min(length / blockSizeChars, maxBlocks) − 1
 * </pre>
 * XXH3 is hash4j's 64-bit XXH3 with the default seed. {@code XXH3(chars)} is its {@code hashCharsToLong}, which
 * equals XXH3 of the chars' UTF-16LE bytes; {@code XXH3(a, b)} of two longs is its {@code hashLongLongToLong}. A
 * {@code null} model or adapter hashes as the empty string, so no adapter and an empty adapter are the same.
 * <p>
 * Only full blocks are hashed: a trailing partial block is ignored, as GIE and vLLM do, because an engine caches only
 * full blocks. A prompt shorter than one block has no hash and can never match.
 * <p>
 * Because h(i) folds in h(i−1), equal hashes at block i imply equal blocks 0..i, equal model and equal adapter. A hash
 * that would be 0 is replaced by 1 (0 marks an empty slot in the index).
 * <p>
 * How: the prompt is copied, some 4,096 characters at a time, into a per-thread {@code char[]}
 * ({@link String#getChars}, an intrinsic) and from there into a little-endian byte buffer (a bulk memory copy). Each
 * block is then hashed with hash4j's {@code byte[]} path. Hashing the prompt through a {@code CharSequence} window
 * would read it a char at a time through an interface call, and that call site inside hash4j slows severalfold once
 * it has seen two {@code CharSequence} types. The only allocation is the result's {@code long[]}.
 */
public final class PrefixHasher {

	/** The largest block, in characters: each hashing thread keeps a buffer of at least one block. */
	public static final int MAX_BLOCK_SIZE_CHARS = 65_536;

	private static final Hasher64 XXH3 = Hashing.xxh3_64();

	private static final int CHUNK_CHARS = 4096;

	private final int blockSizeChars;

	private final int maxBlocks;

	private final ThreadLocal<Scratch> scratch;

	public PrefixHasher(int blockSizeChars, int maxBlocks) {
		if (blockSizeChars < 1 || blockSizeChars > MAX_BLOCK_SIZE_CHARS || maxBlocks < 1) {
			throw new IllegalArgumentException("block size must be 1.." + MAX_BLOCK_SIZE_CHARS
					+ " and max blocks positive, got " + blockSizeChars + " and " + maxBlocks);
		}
		this.blockSizeChars = blockSizeChars;
		this.maxBlocks = maxBlocks;
		int chunkChars = Math.max(1, CHUNK_CHARS / blockSizeChars) * blockSizeChars;
		this.scratch = ThreadLocal.withInitial(() -> new Scratch(chunkChars));
	}

	public int blockSizeChars() {
		return blockSizeChars;
	}

	public int maxBlocks() {
		return maxBlocks;
	}

	/** The chained hashes of the prompt's full blocks, up to {@code maxBlocks}. */
	public PrefixHashes hash(String targetModel, String adapter, String prompt) {
		return hash(targetModel, adapter, null, prompt);
	}

	/**
	 * The chained hashes of the prompt's full blocks, up to {@code maxBlocks}, chained from
	 * {@link #seed(String, String, String) the seed with the request's cache_salt}.
	 */
	public PrefixHashes hash(String targetModel, String adapter, String salt, String prompt) {
		int blocks = (prompt == null) ? 0 : Math.min(prompt.length() / blockSizeChars, maxBlocks);
		if (blocks == 0) {
			return PrefixHashes.NONE;
		}
		long[] hashes = new long[blocks];
		Scratch buffers = scratch.get();
		int blockBytes = blockSizeChars * 2;
		int blocksPerChunk = buffers.chars.length / blockSizeChars;
		long parent = seed(targetModel, adapter, salt);
		for (int first = 0; first < blocks; first += blocksPerChunk) {
			int count = Math.min(blocksPerChunk, blocks - first);
			byte[] bytes = buffers.load(prompt, first * blockSizeChars, count * blockSizeChars);
			for (int b = 0; b < count; b++) {
				long content = XXH3.hashBytesToLong(bytes, b * blockBytes, blockBytes);
				parent = nonZero(XXH3.hashLongLongToLong(parent, content));
				hashes[first + b] = parent;
			}
		}
		return new PrefixHashes(hashes);
	}

	/**
	 * The chained hashes of a prompt given as its token ids (its model's tokenizer counted them), in blocks of
	 * {@code blockSizeTokens} tokens, up to {@code maxBlocks}: as {@link #hash(String, String, String)} with
	 * {@code XXH3(block i)} over the block's ids as little-endian 32-bit integers.
	 */
	public PrefixHashes hashTokens(String targetModel, String adapter, int[] tokens, int blockSizeTokens) {
		return hashTokens(targetModel, adapter, null, tokens, blockSizeTokens);
	}

	/** {@link #hashTokens(String, String, int[], int)} chained from the seed with the request's cache_salt. */
	public PrefixHashes hashTokens(String targetModel, String adapter, String salt, int[] tokens,
			int blockSizeTokens) {
		int blocks = Math.min(tokens.length / blockSizeTokens, maxBlocks);
		if (blocks == 0) {
			return PrefixHashes.NONE;
		}
		long[] hashes = new long[blocks];
		Scratch buffers = scratch.get();
		int blockBytes = blockSizeTokens * 4;
		byte[] bytes = buffers.tokenBytes(blockBytes);
		long parent = seed(targetModel, adapter, salt);
		for (int b = 0; b < blocks; b++) {
			buffers.loadTokens(tokens, b * blockSizeTokens, blockSizeTokens);
			parent = nonZero(XXH3.hashLongLongToLong(parent, XXH3.hashBytesToLong(bytes, 0, blockBytes)));
			hashes[b] = parent;
		}
		return new PrefixHashes(hashes);
	}

	/** h(−1): what block 0 chains from, so different models or adapters never share a block. */
	public static long seed(String targetModel, String adapter) {
		return XXH3.hashLongLongToLong(XXH3.hashCharsToLong(emptyIfNull(targetModel)),
				XXH3.hashCharsToLong(emptyIfNull(adapter)));
	}

	/**
	 * h(−1) for a request with a {@code cache_salt}: {@code XXH3(seed(model, adapter), XXH3(salt))}, so salted prompts
	 * share blocks only with the same salt (as vLLM's prefix cache does); without a salt, {@link #seed(String, String)}.
	 */
	public static long seed(String targetModel, String adapter, String salt) {
		long seed = seed(targetModel, adapter);
		return (salt == null || salt.isEmpty()) ? seed : XXH3.hashLongLongToLong(seed, XXH3.hashCharsToLong(salt));
	}

	private static String emptyIfNull(String value) {
		return (value != null) ? value : "";
	}

	private static long nonZero(long hash) {
		return (hash != 0) ? hash : 1;
	}

	/**
	 * One thread's buffers: a chunk of the prompt as chars, and the same chunk as UTF-16LE bytes; one block of token
	 * ids as little-endian bytes.
	 */
	private static final class Scratch {

		final char[] chars;

		final ByteBuffer bytes;

		final CharBuffer bytesAsChars;

		ByteBuffer tokens = ByteBuffer.allocate(0);

		IntBuffer tokensAsInts = tokens.asIntBuffer();

		byte[] tokenBytes(int blockBytes) {
			if (tokens.capacity() < blockBytes) {
				tokens = ByteBuffer.allocate(blockBytes).order(ByteOrder.LITTLE_ENDIAN);
				tokensAsInts = tokens.asIntBuffer();
			}
			return tokens.array();
		}

		void loadTokens(int[] ids, int start, int length) {
			tokensAsInts.clear();
			tokensAsInts.put(ids, start, length);
		}

		Scratch(int chunkChars) {
			this.chars = new char[chunkChars];
			this.bytes = ByteBuffer.allocate(chunkChars * 2).order(ByteOrder.LITTLE_ENDIAN);
			this.bytesAsChars = bytes.asCharBuffer();
		}

		/** The UTF-16LE bytes of {@code text[start, start + length)}, from offset 0 of the returned array. */
		byte[] load(String text, int start, int length) {
			text.getChars(start, start + length, chars, 0);
			bytesAsChars.clear();
			bytesAsChars.put(chars, 0, length);
			return bytes.array();
		}
	}
}
