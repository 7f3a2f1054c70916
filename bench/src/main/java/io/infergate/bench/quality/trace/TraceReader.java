package io.infergate.bench.quality.trace;

import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads capture files (schema version {@value #VERSION}, {@code docs/capture.md}): gzip-compressed JSON Lines
 * ({@code .jsonl.gz}), or plain ({@code .jsonl}). A directory stands for its capture files, in name order (a rotating
 * capture's files sort in the order they were written). Every problem is a {@link TraceException} naming the file and
 * the line: a line that is not a JSON object, a missing or mistyped field, another schema version, a gzip stream that
 * ends before its trailer (a file cut short) or corrupted data.
 */
public final class TraceReader {

	/** The capture schema version this reader understands. */
	public static final int VERSION = 1;

	private static final JsonFactory JSON = new JsonFactory();

	private TraceReader() {
	}

	/** The capture files a path names: the file itself, or a directory's {@code .jsonl.gz} and {@code .jsonl} files. */
	public static List<Path> files(Path path) {
		if (!Files.exists(path)) {
			throw new TraceException(path + ": no such file or directory");
		}
		if (!Files.isDirectory(path)) {
			return List.of(path);
		}
		try (Stream<Path> listing = Files.list(path)) {
			List<Path> files = listing
				.filter((file) -> file.getFileName().toString().endsWith(".jsonl.gz")
						|| file.getFileName().toString().endsWith(".jsonl"))
				.sorted()
				.toList();
			if (files.isEmpty()) {
				throw new TraceException(path + ": the directory holds no .jsonl.gz or .jsonl capture file");
			}
			return files;
		}
		catch (IOException ex) {
			throw new TraceException(path + ": cannot list the directory: " + ex.getMessage());
		}
	}

	/** Hands every record of the files, in file order, to {@code records}. */
	public static void read(List<Path> files, Consumer<TraceRecord> records) {
		for (Path file : files) {
			read(file, records);
		}
	}

	/** Hands every record of one file, in file order, to {@code records}. */
	public static void read(Path file, Consumer<TraceRecord> records) {
		long line = 0;
		try (InputStream raw = Files.newInputStream(file);
				BufferedReader reader = new BufferedReader(new InputStreamReader(
						file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw,
						StandardCharsets.UTF_8), 1 << 16)) {
			String text;
			while (true) {
				line++;
				text = reader.readLine();
				if (text == null) {
					break;
				}
				if (text.isBlank()) {
					continue;
				}
				records.accept(parse(file, line, text));
			}
		}
		catch (NoSuchFileException ex) {
			throw new TraceException(file + ": no such file");
		}
		catch (EOFException ex) {
			throw new TraceException(file + " line " + line + ": the file ends inside its gzip stream: it was cut "
					+ "short (copied while being written, or truncated); records before this line are whole");
		}
		catch (ZipException ex) {
			throw new TraceException(file + ((line <= 1) ? "" : " line " + line) + ": corrupted gzip data ("
					+ ex.getMessage() + ")" + ((line <= 1) ? "; is it a capture file?" : ""));
		}
		catch (IOException ex) {
			throw new TraceException(file + " line " + line + ": cannot read: " + ex.getMessage());
		}
	}

	/** One line of a capture file. */
	static TraceRecord parse(Path file, long line, String text) {
		Fields fields = new Fields();
		try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), text)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				throw problem(file, line, "not a JSON object");
			}
			JsonToken token;
			while ((token = parser.nextToken()) == JsonToken.PROPERTY_NAME) {
				String name = parser.currentName();
				JsonToken value = parser.nextToken();
				fields.read(parser, name, value, file, line);
			}
			if (token != JsonToken.END_OBJECT || parser.nextToken() != null) {
				throw problem(file, line, "not one JSON object");
			}
		}
		catch (JacksonException ex) {
			throw problem(file, line, "not valid JSON (" + ex.getOriginalMessage() + ")");
		}
		return fields.record(file, line);
	}

	private static TraceException problem(Path file, long line, String message) {
		return new TraceException(file + " line " + line + ": " + message);
	}

	/** The fields of one record as they are read; absent numbers are null. */
	private static final class Fields {

		Long version;

		Long arrivalMs;

		String pool;

		String adapter;

		String tenant;

		Long priority;

		Long promptTokens;

		Long blockSizeChars;

		List<String> blocks;

		Long outputTokens;

		Long maxTokens;

		Long status;

		Double durationMs;

		void read(JsonParser parser, String name, JsonToken value, Path file, long line) {
			switch (name) {
				case "v" -> version = number(parser, name, value, file, line);
				case "arrivalMs" -> arrivalMs = number(parser, name, value, file, line);
				case "pool" -> pool = string(parser, name, value, file, line);
				case "adapter" -> adapter = string(parser, name, value, file, line);
				case "tenant" -> tenant = string(parser, name, value, file, line);
				case "priority" -> priority = number(parser, name, value, file, line);
				case "promptTokens" -> promptTokens = number(parser, name, value, file, line);
				case "blockSizeChars" -> blockSizeChars = number(parser, name, value, file, line);
				case "outputTokens" -> outputTokens = number(parser, name, value, file, line);
				case "maxTokens" -> maxTokens = number(parser, name, value, file, line);
				case "status" -> status = number(parser, name, value, file, line);
				case "blocks" -> blocks = strings(parser, name, value, file, line);
				case "durationMs" -> durationMs = decimal(parser, name, value, file, line);
				default -> parser.skipChildren();
			}
		}

		TraceRecord record(Path file, long line) {
			if (version == null) {
				throw problem(file, line, "no schema version 'v': not a capture record");
			}
			if (version != VERSION) {
				throw problem(file, line, "schema version " + version + "; this bench reads version " + VERSION);
			}
			require(arrivalMs, "arrivalMs", file, line);
			require(priority, "priority", file, line);
			require(blockSizeChars, "blockSizeChars", file, line);
			require(status, "status", file, line);
			if (blocks == null) {
				throw problem(file, line, "'blocks' is missing");
			}
			if (blockSizeChars < 1) {
				throw problem(file, line, "'blockSizeChars' must be at least 1, got " + blockSizeChars);
			}
			if (promptTokens != null && promptTokens < 0 || outputTokens != null && outputTokens < 0
					|| maxTokens != null && maxTokens < 0) {
				throw problem(file, line, "a token count is negative");
			}
			long[] hashes = new long[blocks.size()];
			for (int i = 0; i < hashes.length; i++) {
				String hash = blocks.get(i);
				if (hash.length() != 16) {
					throw problem(file, line, "'blocks' entry " + i + " is not 16 hex digits: '" + hash + "'");
				}
				try {
					hashes[i] = Long.parseUnsignedLong(hash, 16);
				}
				catch (NumberFormatException ex) {
					throw problem(file, line, "'blocks' entry " + i + " is not 16 hex digits: '" + hash + "'");
				}
			}
			return new TraceRecord(arrivalMs, pool, adapter, tenant, Math.toIntExact(priority),
					(promptTokens != null) ? saturated(promptTokens) : -1, saturated(blockSizeChars), hashes,
					(outputTokens != null) ? saturated(outputTokens) : -1,
					(maxTokens != null) ? saturated(maxTokens) : -1, saturated(status),
					(durationMs != null) ? durationMs : Double.NaN);
		}

		private static int saturated(long value) {
			return (int) Math.min(value, Integer.MAX_VALUE);
		}

		private static void require(Long value, String name, Path file, long line) {
			if (value == null) {
				throw problem(file, line, "'" + name + "' is missing");
			}
		}

		private static Long number(JsonParser parser, String name, JsonToken value, Path file, long line) {
			if (value == JsonToken.VALUE_NULL) {
				return null;
			}
			if (value != JsonToken.VALUE_NUMBER_INT) {
				throw problem(file, line, "'" + name + "' must be a whole number");
			}
			return parser.getLongValue();
		}

		private static Double decimal(JsonParser parser, String name, JsonToken value, Path file, long line) {
			if (value == JsonToken.VALUE_NULL) {
				return null;
			}
			if (value != JsonToken.VALUE_NUMBER_INT && value != JsonToken.VALUE_NUMBER_FLOAT) {
				throw problem(file, line, "'" + name + "' must be a number");
			}
			double number = parser.getDoubleValue();
			if (!(number >= 0)) {
				throw problem(file, line, "'" + name + "' must not be negative");
			}
			return number;
		}

		private static String string(JsonParser parser, String name, JsonToken value, Path file, long line) {
			if (value == JsonToken.VALUE_NULL) {
				return null;
			}
			if (value != JsonToken.VALUE_STRING) {
				throw problem(file, line, "'" + name + "' must be a string");
			}
			return parser.getString();
		}

		private static List<String> strings(JsonParser parser, String name, JsonToken value, Path file, long line) {
			if (value != JsonToken.START_ARRAY) {
				throw problem(file, line, "'" + name + "' must be an array of strings");
			}
			List<String> values = new ArrayList<>();
			JsonToken token;
			while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
				if (token != JsonToken.VALUE_STRING) {
					throw problem(file, line, "'" + name + "' must be an array of strings");
				}
				values.add(parser.getString());
			}
			return values;
		}
	}
}
