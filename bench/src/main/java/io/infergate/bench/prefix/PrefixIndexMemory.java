package io.infergate.bench.prefix;

import java.lang.ref.Reference;
import java.net.URI;
import java.util.Arrays;
import java.util.SplittableRandom;

import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.prefix.PrefixHashes;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.PrefixIndexProperties;
import io.infergate.routing.prefix.PrefixIndexStats;

/**
 * The heap a full {@link PrefixIndex} takes, measured without an agent: used heap after forced collections, with the
 * index and without it, median of several runs, beside the index's own estimate
 * ({@link PrefixIndexStats#approximateMemoryBytes()}).
 * <p>
 * Two fills at the default capacity (100 endpoints × 31,250 blocks):
 * <ul>
 * <li>{@code distinct}: no block shared, 3,125,000 entries, the worst case for the shared table;</li>
 * <li>{@code shared-by-4}: endpoints in groups of 4 receive the same prompts, 781,250 entries.</li>
 * </ul>
 * <pre>
 * ./mvnw -B -q -pl bench -am -DskipTests package
 * java -Xmx3g -cp bench/target/routing-bench.jar io.infergate.bench.prefix.PrefixIndexMemory [endpoints] [runs]
 * </pre>
 */
public final class PrefixIndexMemory {

	private static final int BLOCKS_PER_PROMPT = 256;

	private PrefixIndexMemory() {
	}

	public static void main(String[] args) throws InterruptedException {
		int endpoints = (args.length > 0) ? Integer.parseInt(args[0]) : 100;
		int runs = (args.length > 1) ? Integer.parseInt(args[1]) : 5;
		PrefixIndexProperties properties = PrefixIndexProperties.defaults();
		System.out.printf("endpoints %d, capacity %d blocks each, %d runs; MB = 10^6 bytes%n", endpoints,
				properties.lruCapacityPerEndpoint(), runs);
		for (int sharing : new int[] { 1, 4 }) {
			long[] measured = new long[runs];
			long[] estimated = new long[runs];
			long entries = 0;
			long blocks = 0;
			for (int run = 0; run < runs; run++) {
				long before = usedAfterGc();
				PrefixIndex index = fill(properties, endpoints, sharing, run);
				long after = usedAfterGc();
				measured[run] = after - before;
				PrefixIndexStats stats = index.stats();
				estimated[run] = stats.approximateMemoryBytes();
				entries = stats.entries();
				blocks = stats.totalBlocks();
				System.out.printf("  %-11s run %d: measured %7.1f MB, estimate %7.1f MB%n", label(sharing), run,
						measured[run] / 1e6, estimated[run] / 1e6);
				Reference.reachabilityFence(index);
			}
			Arrays.sort(measured);
			Arrays.sort(estimated);
			long median = measured[runs / 2];
			long estimate = estimated[runs / 2];
			System.out.printf("%-11s entries %,d, blocks %,d: measured median %.1f MB (%.1f B per block), "
					+ "median estimate %.1f MB (%.1f B per block), estimate/measured %.2f%n", label(sharing), entries, blocks,
					median / 1e6, (double) median / blocks, estimate / 1e6, (double) estimate / blocks,
					(double) estimate / median);
		}
	}

	private static String label(int sharing) {
		return (sharing == 1) ? "distinct" : "shared-by-" + sharing;
	}

	/** Every endpoint full; endpoints in groups of {@code sharing} receive the same prompts. */
	private static PrefixIndex fill(PrefixIndexProperties properties, int endpoints, int sharing, long seed) {
		PrefixIndex index = new PrefixIndex(properties);
		SplittableRandom random = new SplittableRandom(seed);
		int prompts = (properties.lruCapacityPerEndpoint() + BLOCKS_PER_PROMPT - 1) / BLOCKS_PER_PROMPT;
		long[] hashes = new long[BLOCKS_PER_PROMPT];
		for (int group = 0; group < endpoints; group += sharing) {
			for (int p = 0; p < prompts; p++) {
				for (int b = 0; b < BLOCKS_PER_PROMPT; b++) {
					hashes[b] = random.nextLong() | 1;
				}
				PrefixHashes prompt = PrefixHashes.of(hashes);
				for (int e = group; e < Math.min(group + sharing, endpoints); e++) {
					index.record(prompt, id(e));
				}
			}
		}
		return index;
	}

	private static EndpointId id(int endpoint) {
		return EndpointId.of(URI.create("http://10.0." + (endpoint / 250) + "." + (endpoint % 250 + 1) + ":8000"));
	}

	private static long usedAfterGc() throws InterruptedException {
		Runtime runtime = Runtime.getRuntime();
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 4; i++) {
			System.gc();
			Thread.sleep(100);
			used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
		}
		return used;
	}
}
