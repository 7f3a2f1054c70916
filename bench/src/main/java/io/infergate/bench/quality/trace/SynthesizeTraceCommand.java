package io.infergate.bench.quality.trace;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

import io.infergate.bench.quality.replay.Replay;
import io.infergate.bench.quality.workload.BenchRequest;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadException;
import io.infergate.bench.quality.workload.WorkloadParser;
import io.infergate.bench.quality.workload.WorkloadRequests;
import io.infergate.routing.prefix.PrefixHasher;
import io.infergate.routing.prefix.PrefixHashes;
import io.infergate.routing.prefix.PrefixIndexProperties;

/**
 * {@code synthesize-trace}: writes a workload of independent requests as a capture file (schema version 1), for
 * replays at sizes no test run captures, such as an hour at 500 requests/s. Each record has the request's Poisson
 * arrival time, its prompt length (the gateway's estimate, characters / 4) and its prompt's block-hash chain as the
 * gateway's prefix index hashes it (its default 64-character blocks, at most 256), keyed with a random secret as a
 * capture keys it, and its output tokens; what only a live run knows (TTFT, duration, endpoint) is left null.
 */
public final class SynthesizeTraceCommand {

	public static final String NAME = "synthesize-trace";

	static final String USAGE = """
			Usage: java -jar routing-bench.jar synthesize-trace --workload FILE.yaml --out FILE.jsonl.gz [options]

			Writes the workload's requests (independent requests only: shared-prefix, random, or lora-mix of
			them) as a capture file, schema version 1 (docs/capture.md), with Poisson arrival times.

			Options:
			  --rate R          Poisson rate in requests/s (default: the workload's rate)
			  --requests N      how many requests (default: the workload's warmup + requests)
			  --start-ms T      the first arrival's epoch milliseconds (default 1,800,000,000,000)
			""";

	private static final HexFormat HEX = HexFormat.of();

	private final PrintStream out;

	public SynthesizeTraceCommand(PrintStream out) {
		this.out = out;
	}

	public int run(String[] args) {
		Path workloadFile = null;
		Path file = null;
		Double rate = null;
		Long requests = null;
		long startMs = 1_800_000_000_000L;
		try {
			for (int i = 0; i < args.length; i++) {
				if (args[i].equals("--help")) {
					out.print(USAGE);
					return 0;
				}
				if (i + 1 >= args.length) {
					throw new IllegalArgumentException(args[i] + " needs a value");
				}
				String value = args[++i];
				switch (args[i - 1]) {
					case "--workload" -> workloadFile = Path.of(value);
					case "--out" -> file = Path.of(value);
					case "--rate" -> rate = Double.parseDouble(value);
					case "--requests" -> requests = Long.parseLong(value);
					case "--start-ms" -> startMs = Long.parseLong(value);
					default -> throw new IllegalArgumentException("unknown option '" + args[i - 1] + "'");
				}
			}
			if (workloadFile == null || file == null) {
				throw new IllegalArgumentException("give --workload FILE.yaml and --out FILE.jsonl.gz");
			}
			if (rate != null && !(rate > 0) || requests != null && requests < 1) {
				throw new IllegalArgumentException("--rate and --requests must be positive");
			}
			Workload workload = WorkloadParser.parse(workloadFile);
			long count = (requests != null) ? requests : workload.totalRequests();
			long startNanos = System.nanoTime();
			write(workload, (rate != null) ? rate : workload.arrival().rates().get(0), count, startMs, file);
			out.printf(Locale.ROOT, "wrote %,d records to %s (%,d bytes) in %.1f s%n", count, file,
					Files.size(file), (System.nanoTime() - startNanos) / 1e9);
			return 0;
		}
		catch (IllegalArgumentException | WorkloadException | IOException ex) {
			out.println("synthesize-trace: " + ex.getMessage());
			return 2;
		}
	}

	/** Writes {@code count} requests of the workload arriving at {@code rate} per second from {@code startMs}. */
	public static void write(Workload workload, double rate, long count, long startMs, Path file) throws IOException {
		WorkloadRequests requests = new WorkloadRequests(workload);
		if (requests.conversational()) {
			throw new IllegalArgumentException("a multi-turn workload's arrivals depend on its replies: capture it "
					+ "from a live run (--live --capture DIR) instead");
		}
		PrefixIndexProperties prefix = PrefixIndexProperties.defaults();
		PrefixHasher hasher = new PrefixHasher(prefix.blockSizeChars(), prefix.maxBlocks());
		SplittableRandom secret = new SplittableRandom(new SecureRandom().nextLong());
		long key = secret.nextLong();
		SplittableRandom gaps = new SplittableRandom(workload.seed() * 31 + 101);
		double atMicros = 0;
		try (OutputStream raw = Files.newOutputStream(file);
				Writer writer = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(raw, 1 << 16),
						StandardCharsets.UTF_8), 1 << 16)) {
			StringBuilder line = new StringBuilder(4096);
			for (long i = 0; i < count; i++) {
				atMicros += -Math.log(1 - gaps.nextDouble()) / rate * 1e6;
				BenchRequest request = requests.request(i);
				String prompt = request.gatewayPromptText();
				String model = (request.adapter() != null) ? request.adapter() : Replay.MODEL;
				PrefixHashes hashes = hasher.hash(Replay.MODEL, request.adapter(), prompt);
				line.setLength(0);
				line.append("{\"v\":1,\"arrivalMs\":").append(startMs + (long) (atMicros / 1000));
				line.append(",\"path\":\"/v1/chat/completions\",\"model\":\"").append(model);
				line.append("\",\"pool\":\"").append(Replay.POOL).append('"');
				line.append(",\"adapter\":").append((request.adapter() != null) ? '"' + request.adapter() + '"' : null);
				line.append(",\"tenant\":\"").append(keyed(key, 1)).append("\",\"key\":\"").append(keyed(key, 2));
				line.append("\",\"priority\":0,\"stream\":true,\"promptTokens\":").append((prompt.length() + 3) / 4);
				line.append(",\"promptTokensExact\":false,\"blockSizeChars\":").append(hasher.blockSizeChars());
				line.append(",\"blocks\":[");
				for (int block = 0; block < hashes.blockCount(); block++) {
					line.append((block == 0) ? "\"" : ",\"").append(keyed(key, hashes.hash(block))).append('"');
				}
				line.append("],\"maxTokens\":").append(request.outputTokens());
				line.append(",\"outputTokens\":").append(request.outputTokens());
				line.append(",\"status\":200,\"completed\":true,\"ttftMs\":null,\"durationMs\":null,\"endpoint\":null}\n");
				writer.append(line);
			}
		}
	}

	/** A value keyed with the secret: a bijection of the 64-bit value, as 16 hex digits. */
	private static String keyed(long key, long value) {
		return HEX.toHexDigits(WorkloadRequests.mix(value ^ key));
	}
}
