package io.infergate.gateway.capture;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads a capture directory back: its files in the order they were written, each decompressed whole. */
final class CaptureFilesReader {

	private CaptureFilesReader() {
	}

	static List<Path> files(Path directory) {
		try (Stream<Path> files = Files.list(directory)) {
			return files.filter((file) -> file.getFileName().toString().matches("capture-\\d{8}T\\d{6}Z-\\d+\\.jsonl\\.gz"))
				.sorted((a, b) -> Integer.compare(number(a), number(b)))
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Every file's bytes, decompressed and joined; a truncated gzip file fails. */
	static byte[] bytes(Path directory) {
		ByteArrayOutputStream all = new ByteArrayOutputStream();
		for (Path file : files(directory)) {
			try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
				in.transferTo(all);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(file + " is not a complete gzip file", ex);
			}
		}
		return all.toByteArray();
	}

	static List<JsonNode> records(Path directory) {
		return new String(bytes(directory), StandardCharsets.UTF_8).lines()
			.map((line) -> JsonMapper.shared().readTree(line))
			.toList();
	}

	private static int number(Path file) {
		String name = file.getFileName().toString();
		return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1, name.indexOf(".jsonl.gz")));
	}
}
