package io.infergate.gateway.replay;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.infergate.gateway.capture.FastGzipOutputStream;

/**
 * The captured lines of a window, copied into one file of their own before a run reads them, so that the run sees
 * the capture as it was when it started: the file the capture is writing up to its last whole line
 * ({@link CaptureLines}), and files the capture rotates or removes meanwhile do not matter. A line is left out when
 * its {@code arrivalMs} is outside the window or it was not routed; every other line is copied as it is, for the
 * trace reader to judge.
 */
final class WindowSnapshot {

	private WindowSnapshot() {
	}

	/**
	 * Writes the routed lines of {@code files} that arrived in [{@code fromMs}, {@code toMs}) to {@code target},
	 * gzip-compressed.
	 *
	 * @param pace called after every line, to pace the copy
	 */
	static void write(List<Path> files, long fromMs, long toMs, Path target, Runnable pace) throws IOException {
		try (OutputStream out = new FastGzipOutputStream(Files.newOutputStream(target), 1 << 16, false)) {
			for (Path file : files) {
				CaptureLines.read(file, (line) -> {
					long arrivalMs = CaptureLines.arrivalMs(line);
					if (CaptureLines.routed(line)
							&& (arrivalMs == Long.MIN_VALUE || (arrivalMs >= fromMs && arrivalMs < toMs))) {
						try {
							out.write(line);
						}
						catch (IOException ex) {
							throw new UncheckedIOException(ex);
						}
					}
					pace.run();
				});
			}
		}
	}
}
