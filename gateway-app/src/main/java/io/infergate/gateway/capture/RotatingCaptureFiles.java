package io.infergate.gateway.capture;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Gzip-compressed JSON Lines files {@code capture-<UTC timestamp>-<n>.jsonl.gz} in one directory, {@code n}
 * counting the capture's files from 1. A line goes to a new file once the current one has had {@code maxFileBytes}
 * compressed bytes written, or is older than {@code maxFileAge}; a file is only opened for a line, so none is empty.
 * Each flush is a gzip sync flush, so every line written so far can be read back while the file is open.
 */
final class RotatingCaptureFiles implements CaptureFiles {

	private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
		.withZone(ZoneOffset.UTC);

	private final Path directory;

	private final long maxFileBytes;

	private final Duration maxFileAge;

	private final Clock clock;

	private int files;

	private CountingStream counted;

	private Writer writer;

	private Instant openedAt;

	RotatingCaptureFiles(Path directory, long maxFileBytes, Duration maxFileAge, Clock clock) {
		this.directory = directory;
		this.maxFileBytes = maxFileBytes;
		this.maxFileAge = maxFileAge;
		this.clock = clock;
	}

	@Override
	public void write(String line) throws IOException {
		if (writer != null && (counted.bytes >= maxFileBytes || expired())) {
			close();
		}
		if (writer == null) {
			open();
		}
		writer.write(line);
		writer.write('\n');
	}

	@Override
	public void flush() throws IOException {
		if (writer != null) {
			writer.flush();
		}
	}

	@Override
	public void closeIfExpired() throws IOException {
		if (writer != null && expired()) {
			close();
		}
	}

	@Override
	public void close() throws IOException {
		if (writer != null) {
			Writer closing = writer;
			writer = null;
			counted = null;
			closing.close();
		}
	}

	private boolean expired() {
		return !clock.instant().isBefore(openedAt.plus(maxFileAge));
	}

	private void open() throws IOException {
		openedAt = clock.instant();
		files++;
		Path file = directory.resolve("capture-" + TIMESTAMP.format(openedAt) + "-" + files + ".jsonl.gz");
		counted = new CountingStream(Files.newOutputStream(file, StandardOpenOption.CREATE_NEW));
		writer = new OutputStreamWriter(new FastGzipOutputStream(counted, 8192, true), StandardCharsets.UTF_8);
	}

	/** Counts the compressed bytes on their way to the file. */
	private static final class CountingStream extends FilterOutputStream {

		long bytes;

		CountingStream(OutputStream out) {
			super(out);
		}

		@Override
		public void write(int b) throws IOException {
			out.write(b);
			bytes++;
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			out.write(b, off, len);
			bytes += len;
		}
	}
}
