package io.infergate.gateway.replay;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * The whole lines of a capture file, also of one the capture is still writing: its writer flushes whole lines, and
 * a gzip stream still open ends where its last flush did, so what follows the last line break is a line not yet
 * flushed whole, and is left out. Two fields are read without parsing the line, by the capture's schema
 * ({@code docs/capture.md}): {@code arrivalMs}, and whether {@code pool} is null (a request turned away before
 * routing, which no replay routes).
 */
final class CaptureLines {

	private static final byte[] ARRIVAL = "\"arrivalMs\":".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] NOT_ROUTED = "\"pool\":null".getBytes(StandardCharsets.US_ASCII);

	private CaptureLines() {
	}

	/**
	 * Hands each whole line of {@code file}, with its line break, to {@code lines}.
	 *
	 * @return whether the file is a finished gzip file; false while the capture writes it, or when it was cut short
	 * @throws IOException when it cannot be read, or its data is corrupted
	 */
	static boolean read(Path file, Consumer<byte[]> lines) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream(1024);
		byte[] buffer = new byte[1 << 16];
		boolean finished = true;
		try (InputStream in = new GZIPInputStream(Files.newInputStream(file), 1 << 16)) {
			while (true) {
				int read;
				try {
					read = in.read(buffer);
				}
				catch (EOFException openStream) {
					finished = false;
					break;
				}
				if (read < 0) {
					break;
				}
				int start = 0;
				for (int i = 0; i < read; i++) {
					if (buffer[i] == '\n') {
						line.write(buffer, start, i + 1 - start);
						lines.accept(line.toByteArray());
						line.reset();
						start = i + 1;
					}
				}
				line.write(buffer, start, read - start);
			}
		}
		catch (EOFException emptyOrHeaderCutShort) {
			return false;
		}
		return finished && line.size() == 0;
	}

	/** The number after {@code "arrivalMs":} in a line, or {@link Long#MIN_VALUE} when it has none. */
	static long arrivalMs(byte[] line) {
		int at = indexOf(line, ARRIVAL);
		if (at < 0) {
			return Long.MIN_VALUE;
		}
		long value = 0;
		int digits = 0;
		for (int i = at + ARRIVAL.length; i < line.length && line[i] >= '0' && line[i] <= '9' && digits < 18; i++) {
			value = value * 10 + (line[i] - '0');
			digits++;
		}
		return (digits > 0) ? value : Long.MIN_VALUE;
	}

	/** Whether the line is of a request the gateway routed: its {@code pool} is not null. */
	static boolean routed(byte[] line) {
		return indexOf(line, NOT_ROUTED) < 0;
	}

	private static int indexOf(byte[] line, byte[] text) {
		outer: for (int start = 0; start + text.length <= line.length; start++) {
			for (int j = 0; j < text.length; j++) {
				if (line[start + j] != text[j]) {
					continue outer;
				}
			}
			return start;
		}
		return -1;
	}
}
