package io.infergate.routing.tokenization;

/**
 * The block hashes a model server's prefix cache gives a token sequence: the prompt is cut into blocks of
 * {@code blockSize} tokens, only full blocks count, and each block's hash chains from its parent's, so that equal
 * hashes mean equal prefixes. They must be bit for bit the hashes the engine publishes in {@code BlockStored}. A bean
 * of this type replaces the simulator's ({@link SimulatorBlockHasher}).
 * <p>
 * Called on the scheduling path: implementations must be thread-safe and should not allocate per block.
 */
public interface EngineBlockHasher {

	/**
	 * Writes the chained hashes of the full blocks of {@code tokens[0, count)} to {@code hashes}, at most
	 * {@code hashes.length} of them.
	 * @param adapter the LoRA adapter the request runs with, or null for the base model
	 * @return how many were written
	 */
	int hashFullBlocks(int[] tokens, int count, int blockSize, String adapter, long[] hashes);
}
