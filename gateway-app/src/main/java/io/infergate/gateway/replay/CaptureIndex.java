package io.infergate.gateway.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.infergate.admin.replay.ReplayRuns.CaptureFile;
import io.infergate.bench.quality.trace.TraceException;
import io.infergate.bench.quality.trace.TraceReader;

/**
 * The capture directory's files, each summed up once per size and modification time: its whole records, those
 * routed, and their first and last arrival. A file the capture is still writing (or that was cut short) is read up to
 * its last whole record ({@link CaptureLines}) and marked incomplete.
 */
final class CaptureIndex {

	private final Path directory;

	private final Map<Path, Summary> summaries = new ConcurrentHashMap<>();

	CaptureIndex(Path directory) {
		this.directory = directory;
	}

	Path directory() {
		return directory;
	}

	/** Every capture file, in the order they were written (their names'). */
	List<CaptureFile> files() {
		if (!Files.isDirectory(directory)) {
			return List.of();
		}
		List<Path> files;
		try {
			files = TraceReader.files(directory).stream()
				.filter((file) -> file.getFileName().toString().startsWith("capture-"))
				.toList();
		}
		catch (TraceException noCaptureFileYet) {
			return List.of();
		}
		summaries.keySet().retainAll(files);
		List<CaptureFile> listed = new ArrayList<>(files.size());
		for (Path file : files) {
			BasicFileAttributes attributes;
			try {
				attributes = Files.readAttributes(file, BasicFileAttributes.class);
			}
			catch (IOException ex) {
				continue; // removed since the listing
			}
			Summary summary = summaries.get(file);
			if (summary == null || summary.sizeBytes != attributes.size()
					|| summary.modifiedMillis != attributes.lastModifiedTime().toMillis()) {
				summary = summarize(file, attributes);
				summaries.put(file, summary);
			}
			listed.add(summary.file);
		}
		return listed;
	}

	private static Summary summarize(Path file, BasicFileAttributes attributes) {
		long[] counts = new long[2];
		long[] span = { Long.MAX_VALUE, Long.MIN_VALUE };
		String problem = null;
		boolean complete = false;
		try {
			complete = CaptureLines.read(file, (line) -> {
				counts[0]++;
				long arrivalMs = CaptureLines.arrivalMs(line);
				if (CaptureLines.routed(line) && arrivalMs != Long.MIN_VALUE) {
					counts[1]++;
					span[0] = Math.min(span[0], arrivalMs);
					span[1] = Math.max(span[1], arrivalMs);
				}
			});
		}
		catch (IOException | UncheckedIOException ex) {
			problem = "cannot read it: " + ex.getMessage();
		}
		boolean spanned = counts[1] > 0;
		return new Summary(new CaptureFile(file.getFileName().toString(), attributes.size(), counts[0], counts[1],
				spanned ? span[0] : null, spanned ? span[1] : null, complete, problem), attributes.size(),
				attributes.lastModifiedTime().toMillis());
	}

	private record Summary(CaptureFile file, long sizeBytes, long modifiedMillis) {
	}
}
