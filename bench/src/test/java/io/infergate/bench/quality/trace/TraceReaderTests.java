package io.infergate.bench.quality.trace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TraceReaderTests {

	private static final String LINE = "{\"v\":1,\"arrivalMs\":%d,\"path\":\"/v1/chat/completions\",\"model\":\"m\","
			+ "\"pool\":%s,\"adapter\":null,\"tenant\":\"3f9a0c1d2e4b5a69\",\"key\":\"b71e0f3c9d2a4e58\","
			+ "\"priority\":%d,\"stream\":true,\"promptTokens\":40,\"promptTokensExact\":false,"
			+ "\"blockSizeChars\":64,\"blocks\":[\"8c1d00000000ffff\",\"07fe000000000001\"],\"maxTokens\":16,"
			+ "\"outputTokens\":%s,\"status\":200,\"completed\":true,\"ttftMs\":41.2,\"durationMs\":229.5,"
			+ "\"endpoint\":\"10.0.0.5:8000\"}";

	@TempDir
	Path dir;

	private static String line(long arrivalMs, String pool, int priority, String outputTokens) {
		return LINE.formatted(arrivalMs, (pool != null) ? "\"" + pool + "\"" : "null", priority, outputTokens);
	}

	private Path gzip(String name, List<String> lines) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (OutputStream gzip = new GZIPOutputStream(bytes)) {
			gzip.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
		}
		return Files.write(dir.resolve(name), bytes.toByteArray());
	}

	private Path plain(String name, String... lines) throws IOException {
		return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
	}

	@Test
	void readsEveryFieldAReplayUses() throws IOException {
		Path file = plain("capture-1.jsonl", line(1000, "llama", -2, "7"));
		List<TraceRecord> records = new ArrayList<>();

		TraceReader.read(file, records::add);

		assertThat(records).hasSize(1);
		TraceRecord record = records.get(0);
		assertThat(record.arrivalMs()).isEqualTo(1000);
		assertThat(record.pool()).isEqualTo("llama");
		assertThat(record.tenant()).isEqualTo("3f9a0c1d2e4b5a69");
		assertThat(record.priority()).isEqualTo(-2);
		assertThat(record.promptTokens()).isEqualTo(40);
		assertThat(record.blockSizeChars()).isEqualTo(64);
		assertThat(record.blocks()).containsExactly(0x8c1d00000000ffffL, 0x07fe000000000001L);
		assertThat(record.outputTokens()).isEqualTo(7);
		assertThat(record.maxTokens()).isEqualTo(16);
		assertThat(record.status()).isEqualTo(200);
	}

	@Test
	void aTraceIsInArrivalOrderWithoutRequestsTurnedAwayBeforeRouting() throws IOException {
		// written as requests end: the second record arrived first; the third was never routed (a 404)
		Path file = gzip("capture-1.jsonl.gz", List.of(line(5000, "p", 0, "3"), line(2000, "p", 1, "null"),
				line(3000, null, 0, "null"), line(9000, "p", 0, "4")));

		Trace trace = Trace.read(file, 2, Long.MIN_VALUE, Long.MAX_VALUE, 100);

		assertThat(trace.size()).isEqualTo(3);
		assertThat(trace.arrivalMicros(0)).isZero();
		assertThat(trace.arrivalMicros(1)).isEqualTo(1_500_000);
		assertThat(trace.arrivalMicros(2)).isEqualTo(3_500_000);
		// no usage: its max_tokens
		assertThat(trace.request(0).outputTokens()).isEqualTo(16);
		assertThat(trace.request(1).outputTokens()).isEqualTo(3);
		assertThat(trace.tenant(0).priority()).isEqualTo(1);
		assertThat(trace.toString()).contains("3 routed requests", "1 turned away before routing left out");
	}

	@Test
	void promptsSharingBlockHashesShareThatTextAndNoMore() throws IOException {
		String shared = "\"blocks\":[\"8c1d00000000ffff\",\"07fe000000000001\"]";
		Path file = plain("c.jsonl", line(1000, "p", 0, "1"),
				line(2000, "p", 0, "1").replace(shared, "\"blocks\":[\"8c1d00000000ffff\",\"0000000000000002\"]"));
		Trace trace = Trace.read(file, 1, Long.MIN_VALUE, Long.MAX_VALUE, 10);

		String first = trace.request(0).messages().get(0).content();
		String second = trace.request(1).messages().get(0).content();

		assertThat(first).hasSize(160);
		assertThat(second).hasSize(160);
		assertThat(first.substring(0, 64)).isEqualTo(second.substring(0, 64));
		assertThat(first.substring(64, 128)).isNotEqualTo(second.substring(64, 128));
	}

	private static String turn(long arrivalMs, double durationMs, String... blocks) {
		return line(arrivalMs, "p", 0, "4").replace("\"blocks\":[\"8c1d00000000ffff\",\"07fe000000000001\"]",
				"\"blocks\":[\"" + String.join("\",\"", blocks) + "\"]").replace("\"durationMs\":229.5",
						"\"durationMs\":" + durationMs);
	}

	@Test
	void aRequestExtendingAnEndedRequestsWholeChainIsItsConversationsNextTurn() throws IOException {
		String a = "000000000000000a";
		String b = "000000000000000b";
		String c = "000000000000000c";
		String d = "000000000000000d";
		Path file = plain("c.jsonl",
				// written as they end: the first turn ends at 1,500 ms
				turn(1000, 500, a, b),
				// another conversation sharing only the first block: no link
				turn(1200, 100, a, d),
				// the next turn, 700 ms after the first ended
				turn(2200, 900, a, b, c),
				// extends the first turn too, but that one is followed already; and the second turn had not ended
				turn(2500, 100, a, b, c, d));

		Trace trace = Trace.read(file, 2, Long.MIN_VALUE, Long.MAX_VALUE, 10);

		assertThat(trace.predecessor(0)).isEqualTo(-1);
		assertThat(trace.predecessor(1)).isEqualTo(-1);
		assertThat(trace.predecessor(2)).isZero();
		assertThat(trace.follower(0)).isEqualTo(2);
		assertThat(trace.thinkMicros(2)).isEqualTo(350_000);
		assertThat(trace.predecessor(3)).isEqualTo(-1);
		assertThat(trace.toString()).contains("1 sent as conversations' next turns");
		assertThat(trace.openLoop().predecessor(2)).isEqualTo(-1);
	}

	@Test
	void aWindowKeepsOnlyItsArrivals() throws IOException {
		Path file = plain("c.jsonl", line(1000, "p", 0, "1"), line(2000, "p", 0, "1"), line(3000, "p", 0, "1"));

		assertThat(Trace.read(file, 1, 2000, 3000, 10).size()).isEqualTo(1);
		assertThatThrownBy(() -> Trace.read(file, 1, 5000, 6000, 10)).isInstanceOf(TraceException.class)
			.hasMessageEndingWith("no routed request to replay in the window");
		assertThatThrownBy(() -> Trace.read(file, 1, Long.MIN_VALUE, Long.MAX_VALUE, 2))
			.hasMessageEndingWith("more than 2 routed requests in the window");
	}

	@Test
	void aDirectoryIsItsCaptureFilesInNameOrder() throws IOException {
		gzip("capture-20260101T000000Z-2.jsonl.gz", List.of(line(2000, "p", 0, "1")));
		gzip("capture-20260101T000000Z-1.jsonl.gz", List.of(line(1000, "p", 0, "1")));
		Files.writeString(dir.resolve("notes.txt"), "not a capture");

		assertThat(TraceReader.files(dir)).extracting((path) -> path.getFileName().toString())
			.containsExactly("capture-20260101T000000Z-1.jsonl.gz", "capture-20260101T000000Z-2.jsonl.gz");
		assertThat(Trace.read(dir, 1, Long.MIN_VALUE, Long.MAX_VALUE, 10).size()).isEqualTo(2);
	}

	@Test
	void aTruncatedFileIsReportedWithTheLineWhereItEnds() throws IOException {
		List<String> lines = new ArrayList<>();
		for (int i = 0; i < 2000; i++) {
			lines.add(line(1000 + i, "p", 0, Integer.toString(i)).replace("8c1d00000000ffff",
					String.format("%016x", i * 0x9E3779B97F4A7C15L)));
		}
		Path whole = gzip("whole.jsonl.gz", lines);
		byte[] bytes = Files.readAllBytes(whole);
		Path cut = Files.write(dir.resolve("cut.jsonl.gz"), Arrays.copyOf(bytes, bytes.length / 2));
		List<TraceRecord> before = new ArrayList<>();

		assertThatThrownBy(() -> TraceReader.read(cut, before::add)).isInstanceOf(TraceException.class)
			.hasMessageMatching(".*cut\\.jsonl\\.gz line \\d+: the file ends inside its gzip stream: it was cut short.*");
		assertThat(before).hasSizeGreaterThan(100).hasSizeLessThan(2000);
		assertThat(before.get(before.size() - 1).outputTokens()).isEqualTo(before.size() - 1);
	}

	@Test
	void corruptedDataIsReportedWithItsLine() throws IOException {
		List<String> lines = new ArrayList<>();
		for (int i = 0; i < 2000; i++) {
			lines.add(line(1000 + i, "p", 0, Integer.toString(i)));
		}
		byte[] bytes = Files.readAllBytes(gzip("whole.jsonl.gz", lines));
		for (int i = bytes.length / 2; i < bytes.length / 2 + 64; i++) {
			bytes[i] ^= (byte) 0x5A;
		}
		Path corrupted = Files.write(dir.resolve("corrupted.jsonl.gz"), bytes);

		assertThatThrownBy(() -> TraceReader.read(corrupted, (record) -> {
		})).isInstanceOf(TraceException.class).hasMessageMatching(".*corrupted\\.jsonl\\.gz line \\d+: .*");
		Path notGzip = plain("plain-named.jsonl.gz", line(1, "p", 0, "1"));
		assertThatThrownBy(() -> TraceReader.read(notGzip, (record) -> {
		})).hasMessageContaining("corrupted gzip data").hasMessageEndingWith("is it a capture file?");
	}

	@Test
	void aWrongVersionOrABadLineNamesItsLine() throws IOException {
		Path version = plain("v2.jsonl", line(1, "p", 0, "1"), line(2, "p", 0, "1"),
				line(3, "p", 0, "1").replace("\"v\":1", "\"v\":2"));
		assertThatThrownBy(() -> TraceReader.read(version, (record) -> {
		})).isInstanceOf(TraceException.class)
			.hasMessageEndingWith("v2.jsonl line 3: schema version 2; this bench reads version 1");

		Path json = plain("json.jsonl", line(1, "p", 0, "1"), "{\"v\":1,\"arrivalMs\":");
		assertThatThrownBy(() -> TraceReader.read(json, (record) -> {
		})).hasMessageContaining("json.jsonl line 2: not valid JSON");

		Path missing = plain("missing.jsonl", line(1, "p", 0, "1").replace("\"arrivalMs\":1,", ""));
		assertThatThrownBy(() -> TraceReader.read(missing, (record) -> {
		})).hasMessageEndingWith("missing.jsonl line 1: 'arrivalMs' is missing");

		Path hash = plain("hash.jsonl", line(1, "p", 0, "1").replace("07fe000000000001", "07fe00000000000z"));
		assertThatThrownBy(() -> TraceReader.read(hash, (record) -> {
		})).hasMessageEndingWith("hash.jsonl line 1: 'blocks' entry 1 is not 16 hex digits: '07fe00000000000z'");

		Path unversioned = plain("other.jsonl", "{\"hello\":\"world\"}");
		assertThatThrownBy(() -> TraceReader.read(unversioned, (record) -> {
		})).hasMessageEndingWith("other.jsonl line 1: no schema version 'v': not a capture record");
	}
}
