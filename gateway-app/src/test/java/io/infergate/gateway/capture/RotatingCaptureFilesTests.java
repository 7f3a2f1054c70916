package io.infergate.gateway.capture;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Capture files: a new file past the size or age limit, each a complete gzip file, no line lost or split. */
class RotatingCaptureFilesTests {

	@TempDir
	Path directory;

	final MutableClock clock = new MutableClock(Instant.parse("2026-01-02T03:04:05Z"));

	@Test
	void startsANewFileOnceTheCompressedSizeLimitIsPassed() throws IOException {
		RotatingCaptureFiles files = new RotatingCaptureFiles(directory, 4096, Duration.ofHours(1), clock);
		List<String> lines = randomLines(400);
		for (String line : lines) {
			files.write(line);
			files.flush();
		}
		files.close();

		assertThat(CaptureFilesReader.files(directory)).hasSizeGreaterThan(3)
			.allSatisfy((file) -> assertThat(file.toFile().length()).isLessThan(4096 + 2048));
		assertThat(CaptureFilesReader.files(directory).get(0).getFileName())
			.hasToString("capture-20260102T030405Z-1.jsonl.gz");
		assertThat(CaptureFilesReader.records(directory)).hasSize(lines.size());
		assertThat(new String(CaptureFilesReader.bytes(directory))).isEqualTo(String.join("\n", lines) + "\n");
	}

	@Test
	void startsANewFileOnceTheAgeLimitIsPassed() throws IOException {
		RotatingCaptureFiles files = new RotatingCaptureFiles(directory, Long.MAX_VALUE, Duration.ofMinutes(10), clock);
		files.write("{\"n\":1}");
		clock.advance(Duration.ofMinutes(9));
		files.write("{\"n\":2}");
		clock.advance(Duration.ofMinutes(1));
		files.write("{\"n\":3}");
		clock.advance(Duration.ofMinutes(10));
		files.closeIfExpired();

		assertThat(CaptureFilesReader.files(directory)).extracting((file) -> file.getFileName().toString())
			.containsExactly("capture-20260102T030405Z-1.jsonl.gz", "capture-20260102T031405Z-2.jsonl.gz");
		assertThat(CaptureFilesReader.records(directory)).extracting((record) -> record.get("n").asInt())
			.containsExactly(1, 2, 3);
	}

	private static List<String> randomLines(int count) {
		Random random = new Random(7);
		List<String> lines = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			lines.add("{\"n\":" + i + ",\"h\":\"" + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong())
					+ "\"}");
		}
		return lines;
	}

	static final class MutableClock extends Clock {

		private Instant now;

		MutableClock(Instant now) {
			this.now = now;
		}

		void advance(Duration duration) {
			now = now.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return now;
		}
	}
}
