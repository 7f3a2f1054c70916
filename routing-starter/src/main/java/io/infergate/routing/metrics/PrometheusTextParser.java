package io.infergate.routing.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Parser for the Prometheus text exposition format, version 0.0.4, as vLLM, SGLang, TensorRT-LLM and Triton serve
 * it on {@code /metrics}.
 * <p>
 * Grammar, per line (lines end with LF; a CR before it is ignored, so CRLF works):
 * <pre>
 * line    = blank | comment | sample
 * comment = ws* "#" anything                      (# HELP and # TYPE are comments too)
 * sample  = ws* name [ "{" labels "}" ] ws* value [ ws+ timestamp ] ws* [ "#" anything ]
 * name    = [a-zA-Z_:][a-zA-Z0-9_:]*
 * labels  = ws* [ label ws* ( "," ws* label ws* )* [ "," ws* ] ]
 * label   = [a-zA-Z_][a-zA-Z0-9_]* ws* "=" ws* '"' escaped-utf8 '"'   escapes: \\  \"  \n
 * value   = float | "NaN" | "+Inf" | "-Inf" | "Inf"  (case-insensitive; scientific notation allowed)
 * timestamp = [+-]?[0-9]+                            (milliseconds, int64)
 * </pre>
 * Leniencies, all harmless for real servers: whitespace may be omitted between {@code }} and the value; an unknown
 * escape such as {@code \t} is kept as written; anything after a {@code #} that follows the value or timestamp
 * (an OpenMetrics exemplar) is ignored.
 * <p>
 * <b>Robustness.</b> A malformed line (truncated, bad number, unterminated label value, trailing garbage, invalid
 * name) is skipped and counted in {@link PrometheusSamples#skippedLines()}; the lines around it are kept. The parser
 * never throws on any input, including random bytes; malformed UTF-8 in label values decodes to U+FFFD.
 * <p>
 * <b>Cost.</b> One pass over the bytes: every byte is looked at a bounded number of times, so time is linear in the
 * input length whatever its content. A {@linkplain #selecting selective} parser compares each line's name with the
 * selected names (one length-indexed table probe, then a vectorised byte compare) before it looks at labels or value,
 * and skips every other line, comments included, with a scan for the next LF eight bytes at a time; only selected samples allocate. A
 * {@linkplain #full() full} parser keeps every sample and the {@code # TYPE} declarations, for tests and debugging.
 * <p>
 * Instances are immutable and thread-safe.
 */
public final class PrometheusTextParser {

	private static final PrometheusTextParser FULL = new PrometheusTextParser(null);

	private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
			ByteOrder.LITTLE_ENDIAN);

	private static final long EIGHT_NEWLINES = 0x0A0A0A0A0A0A0A0AL;

	private static final int STRING_CACHE_SLOTS = 64;

	private static final int MAX_CACHED_STRING_BYTES = 64;

	private static final boolean[] NAME_CHAR = new boolean[256];

	private static final boolean[] LABEL_NAME_CHAR = new boolean[256];

	/** Exact powers of ten representable as doubles: the fast path of {@link Pass#parseValue}. */
	private static final double[] POWERS_OF_TEN = new double[23];

	static {
		for (int c = 'a'; c <= 'z'; c++) {
			NAME_CHAR[c] = true;
			NAME_CHAR[c - 'a' + 'A'] = true;
		}
		for (int c = '0'; c <= '9'; c++) {
			NAME_CHAR[c] = true;
		}
		NAME_CHAR['_'] = true;
		System.arraycopy(NAME_CHAR, 0, LABEL_NAME_CHAR, 0, 256);
		NAME_CHAR[':'] = true;
		double power = 1;
		for (int i = 0; i < POWERS_OF_TEN.length; i++) {
			POWERS_OF_TEN[i] = power;
			power *= 10;
		}
	}

	/** Selected names indexed by their length in bytes; {@code null} for a full parser. */
	private final NameTable selected;

	private PrometheusTextParser(NameTable selected) {
		this.selected = selected;
	}

	/** A parser that keeps every sample and the {@code # TYPE} declarations. */
	public static PrometheusTextParser full() {
		return FULL;
	}

	/**
	 * A parser that keeps only samples whose name is exactly one of {@code sampleNames} (suffix included:
	 * ask for {@code foo_total}, not {@code foo}), and skips every other line cheaply.
	 * @throws IllegalArgumentException if a name is not a valid metric name
	 */
	public static PrometheusTextParser selecting(Collection<String> sampleNames) {
		return new PrometheusTextParser(new NameTable(new LinkedHashSet<>(sampleNames)));
	}

	/** Whether {@code name} is a valid metric name: {@code [a-zA-Z_:][a-zA-Z0-9_:]*}. */
	public static boolean isValidMetricName(String name) {
		return isValidName(name, NAME_CHAR);
	}

	/** Whether {@code name} is a valid label name: {@code [a-zA-Z_][a-zA-Z0-9_]*}. */
	public static boolean isValidLabelName(String name) {
		return isValidName(name, LABEL_NAME_CHAR);
	}

	static boolean isNameChar(char c, boolean metric) {
		return c < 0x80 && (metric ? NAME_CHAR : LABEL_NAME_CHAR)[c];
	}

	private static boolean isValidName(String name, boolean[] nameChars) {
		if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
			return false;
		}
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (c >= 0x80 || !nameChars[c]) {
				return false;
			}
		}
		return true;
	}

	/** The names a selective parser keeps, or an empty set for a full parser. */
	public Set<String> selectedNames() {
		return (selected != null) ? selected.names : Set.of();
	}

	public PrometheusSamples parse(String text) {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		return parse(bytes, 0, bytes.length);
	}

	public PrometheusSamples parse(byte[] text) {
		return parse(text, 0, text.length);
	}

	/** Parses {@code length} bytes of UTF-8 exposition text starting at {@code offset}. */
	public PrometheusSamples parse(byte[] text, int offset, int length) {
		Objects.checkFromIndexSize(offset, length, text.length);
		Pass pass = new Pass(text, offset + length, selected == null);
		int position = offset;
		while (position < pass.end) {
			position = pass.read(position);
		}
		return new PrometheusSamples(pass.samples, (pass.types != null) ? pass.types : Map.of(), pass.skipped);
	}

	/** One pass over a text: the text, the output, and scratch space reused from line to line. */
	private final class Pass {

		private final byte[] text;

		private final int end;

		private final List<PrometheusSample> samples;

		private final Map<String, String> types;

		private int skipped;

		/** Unescaped label value bytes; allocated on the first escape seen. */
		private byte[] unescaped;

		/** Names and values of the labels of the line being read. */
		private String[] labels = new String[8];

		private int labelsLength;

		/** Recently made strings by slot, so repeated names and values (le, model_name) are made once per parse. */
		private byte[][] stringKeys;

		private String[] strings;

		/** The value read by {@link #labelValue}, and whether the last number read was malformed. */
		private String pendingValue;

		private boolean malformedNumber;

		Pass(byte[] text, int end, boolean full) {
			this.text = text;
			this.end = end;
			this.samples = new ArrayList<>(full ? 256 : 8);
			this.types = full ? new HashMap<>() : null;
		}

		/** Reads the line starting at {@code start} and returns where the next line starts. */
		int read(int start) {
			int i = skipSpaces(start, end);
			if (i == end) {
				return end;
			}
			byte first = text[i];
			if (first == '\n') {
				return i + 1;
			}
			if (first == '#') {
				int lineEnd = lineEnd(i + 1);
				if (types != null) {
					comment(i + 1, trimEnd(i + 1, lineEnd));
				}
				return next(lineEnd);
			}
			int nameEnd = i;
			while (nameEnd < end && NAME_CHAR[text[nameEnd] & 0xff]) {
				nameEnd++;
			}
			String name;
			if (selected != null) {
				// Decide on the name alone: most lines are other families (histogram buckets mostly).
				name = selected.lookup(text, i, nameEnd);
				if (name == null) {
					return next(lineEnd(nameEnd));
				}
			}
			else if (nameEnd > i && !isDigit(first)) {
				name = string(i, nameEnd);
			}
			else {
				name = null;
			}
			int lineEnd = lineEnd(nameEnd);
			int contentEnd = trimEnd(nameEnd, lineEnd);
			if (name == null) {
				if (contentEnd > i) {
					skipped++;
				}
			}
			else if (!sample(name, nameEnd, contentEnd)) {
				skipped++;
			}
			return next(lineEnd);
		}

		/** Reads labels, value and timestamp after the name; false if the rest of the line is malformed. */
		private boolean sample(String name, int start, int limit) {
			int i = start;
			labelsLength = 0;
			boolean hasLabels = i < limit && text[i] == '{';
			if (hasLabels) {
				i = labels(i + 1, limit);
				if (i < 0) {
					return false;
				}
			}
			int valueStart = skipSpaces(i, limit);
			if (valueStart == limit || (valueStart == i && !hasLabels)) {
				return false;
			}
			int valueEnd = token(valueStart, limit);
			double value = parseValue(valueStart, valueEnd);
			if (malformedNumber) {
				return false;
			}
			long timestampMillis = PrometheusSample.NO_TIMESTAMP;
			i = skipSpaces(valueEnd, limit);
			if (i < limit && text[i] != '#') {
				int timestampEnd = token(i, limit);
				timestampMillis = parseTimestamp(i, timestampEnd);
				if (malformedNumber) {
					return false;
				}
				i = skipSpaces(timestampEnd, limit);
				if (i < limit && text[i] != '#') {
					return false;
				}
			}
			Labels labelSet = (labelsLength == 0) ? Labels.EMPTY : Labels.wrap(Arrays.copyOf(labels, labelsLength));
			samples.add(new PrometheusSample(name, labelSet, value, timestampMillis));
			return true;
		}

		/** Reads {@code label="value",...}} from just after the brace; returns the index after the closing brace, or -1. */
		private int labels(int start, int limit) {
			int i = start;
			while (true) {
				i = skipSpaces(i, limit);
				if (i >= limit) {
					return -1;
				}
				if (text[i] == '}') {
					return i + 1;
				}
				int nameStart = i;
				if (isDigit(text[i])) {
					return -1;
				}
				while (i < limit && LABEL_NAME_CHAR[text[i] & 0xff]) {
					i++;
				}
				if (i == nameStart) {
					return -1;
				}
				String labelName = string(nameStart, i);
				i = skipSpaces(i, limit);
				if (i >= limit || text[i] != '=') {
					return -1;
				}
				i = skipSpaces(i + 1, limit);
				if (i >= limit || text[i] != '"') {
					return -1;
				}
				i = labelValue(i + 1, limit);
				if (i < 0) {
					return -1;
				}
				addLabel(labelName, pendingValue);
				i = skipSpaces(i, limit);
				if (i >= limit) {
					return -1;
				}
				if (text[i] == ',') {
					i++;
				}
				else if (text[i] != '}') {
					return -1;
				}
			}
		}

		/** Reads a quoted value from just after its opening quote into {@link #pendingValue}; returns the index after the closing quote, or -1. */
		private int labelValue(int start, int limit) {
			int i = start;
			while (i < limit && text[i] != '"' && text[i] != '\\') {
				i++;
			}
			if (i >= limit) {
				return -1;
			}
			if (text[i] == '"') {
				pendingValue = string(start, i);
				return i + 1;
			}
			// Escapes: copy into scratch space, which grows with the longest escaped value seen.
			if (unescaped == null || unescaped.length < limit - start) {
				unescaped = new byte[Math.max(64, limit - start)];
			}
			int length = i - start;
			System.arraycopy(text, start, unescaped, 0, length);
			while (i < limit) {
				byte c = text[i];
				if (c == '"') {
					pendingValue = new String(unescaped, 0, length, StandardCharsets.UTF_8);
					return i + 1;
				}
				if (c == '\\' && i + 1 < limit) {
					byte escaped = text[i + 1];
					switch (escaped) {
						case 'n' -> unescaped[length++] = '\n';
						case '\\', '"' -> unescaped[length++] = escaped;
						default -> {
							unescaped[length++] = '\\';
							unescaped[length++] = escaped;
						}
					}
					i += 2;
				}
				else {
					unescaped[length++] = c;
					i++;
				}
			}
			return -1;
		}

		/**
		 * The UTF-8 text of {@code text[from, to)}; short strings come from a direct-mapped cache keyed by their
		 * bytes, so a label such as {@code model_name="..."} repeated on every line is decoded once.
		 */
		private String string(int from, int to) {
			int length = to - from;
			if (length > MAX_CACHED_STRING_BYTES) {
				return new String(text, from, length, StandardCharsets.UTF_8);
			}
			int hash = length;
			for (int i = from; i < to; i++) {
				hash = 31 * hash + text[i];
			}
			if (strings == null) {
				stringKeys = new byte[STRING_CACHE_SLOTS][];
				strings = new String[STRING_CACHE_SLOTS];
			}
			int slot = (hash ^ (hash >>> 7)) & (STRING_CACHE_SLOTS - 1);
			byte[] key = stringKeys[slot];
			if (key != null && Arrays.equals(key, 0, key.length, text, from, to)) {
				return strings[slot];
			}
			String value = new String(text, from, length, StandardCharsets.UTF_8);
			stringKeys[slot] = Arrays.copyOfRange(text, from, to);
			strings[slot] = value;
			return value;
		}

		private void addLabel(String name, String value) {
			if (labelsLength + 2 > labels.length) {
				labels = Arrays.copyOf(labels, labels.length * 2);
			}
			labels[labelsLength++] = name;
			labels[labelsLength++] = value;
		}

		/**
		 * Parses a sample value. Decimal text with at most 15 significant digits and a decimal exponent within
		 * ±22 is computed as one multiplication or division of two exactly representable doubles, which IEEE 754
		 * rounds correctly; anything longer goes to {@link Double#parseDouble} after the syntax is checked here.
		 */
		private double parseValue(int from, int to) {
			malformedNumber = false;
			int i = from;
			boolean negative = false;
			if (i < to && (text[i] == '+' || text[i] == '-')) {
				negative = text[i] == '-';
				i++;
			}
			if (i == to) {
				return malformed();
			}
			byte first = (byte) (text[i] | 0x20);
			if (first == 'i' || first == 'n') {
				if (matchesIgnoreCase(i, to, "inf") || matchesIgnoreCase(i, to, "infinity")) {
					return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
				}
				return matchesIgnoreCase(i, to, "nan") ? Double.NaN : malformed();
			}
			long mantissa = 0;
			int significantDigits = 0;
			int exponent = 0;
			boolean anyDigit = false;
			while (i < to && isDigit(text[i])) {
				anyDigit = true;
				int digit = text[i++] - '0';
				if (mantissa == 0 && digit == 0) {
					continue;
				}
				if (significantDigits < 18) {
					mantissa = mantissa * 10 + digit;
					significantDigits++;
				}
				else {
					exponent++; // a dropped digit; the slow path below reads the text again
				}
			}
			if (i < to && text[i] == '.') {
				i++;
				while (i < to && isDigit(text[i])) {
					anyDigit = true;
					int digit = text[i++] - '0';
					if (mantissa == 0 && digit == 0) {
						exponent--;
					}
					else if (significantDigits < 18) {
						mantissa = mantissa * 10 + digit;
						significantDigits++;
						exponent--;
					}
				}
			}
			if (!anyDigit) {
				return malformed();
			}
			if (i < to && (text[i] | 0x20) == 'e') {
				i++;
				boolean negativeExponent = false;
				if (i < to && (text[i] == '+' || text[i] == '-')) {
					negativeExponent = text[i] == '-';
					i++;
				}
				if (i == to) {
					return malformed();
				}
				int written = 0;
				while (i < to && isDigit(text[i])) {
					if (written < 100_000) {
						written = written * 10 + (text[i] - '0');
					}
					i++;
				}
				exponent += negativeExponent ? -written : written;
			}
			if (i != to) {
				return malformed();
			}
			if (mantissa == 0) {
				return negative ? -0.0 : 0.0;
			}
			if (significantDigits <= 15 && exponent >= -22 && exponent <= 22) {
				double magnitude = (exponent < 0) ? mantissa / POWERS_OF_TEN[-exponent]
						: mantissa * POWERS_OF_TEN[exponent];
				return negative ? -magnitude : magnitude;
			}
			// The syntax is checked above, so this cannot throw.
			return Double.parseDouble(new String(text, from, to - from, StandardCharsets.ISO_8859_1));
		}

		private long parseTimestamp(int from, int to) {
			malformedNumber = false;
			int i = from;
			boolean negative = false;
			if (text[i] == '+' || text[i] == '-') {
				negative = text[i] == '-';
				i++;
			}
			if (i == to) {
				malformed();
				return 0;
			}
			long value = 0;
			for (; i < to; i++) {
				if (!isDigit(text[i]) || value > (Long.MAX_VALUE - 9) / 10) {
					malformed();
					return 0;
				}
				value = value * 10 + (text[i] - '0');
			}
			return negative ? -value : value;
		}

		private double malformed() {
			malformedNumber = true;
			return Double.NaN;
		}

		private boolean matchesIgnoreCase(int from, int to, String word) {
			if (to - from != word.length()) {
				return false;
			}
			for (int k = 0; k < word.length(); k++) {
				if ((text[from + k] | 0x20) != word.charAt(k)) {
					return false;
				}
			}
			return true;
		}

		/** Records {@code # TYPE name type}; every other comment is ignored. */
		private void comment(int start, int limit) {
			int i = skipSpaces(start, limit);
			if (limit - i < 5 || text[i] != 'T' || text[i + 1] != 'Y' || text[i + 2] != 'P' || text[i + 3] != 'E'
					|| !isSpace(text[i + 4])) {
				return;
			}
			int nameStart = skipSpaces(i + 4, limit);
			int nameEnd = token(nameStart, limit);
			int typeStart = skipSpaces(nameEnd, limit);
			int typeEnd = token(typeStart, limit);
			if (nameEnd > nameStart && typeEnd > typeStart) {
				String name = new String(text, nameStart, nameEnd - nameStart, StandardCharsets.UTF_8);
				if (isValidMetricName(name)) {
					types.put(name, new String(text, typeStart, typeEnd - typeStart, StandardCharsets.UTF_8));
				}
			}
		}

		private int lineEnd(int from) {
			return indexOfNewline(text, from, end);
		}

		private int next(int lineEnd) {
			return (lineEnd < end) ? lineEnd + 1 : end;
		}

		/** Drops trailing spaces, tabs and the CR of a CRLF. */
		private int trimEnd(int from, int to) {
			int i = to;
			while (i > from && (isSpace(text[i - 1]) || text[i - 1] == '\r')) {
				i--;
			}
			return i;
		}

		private int skipSpaces(int from, int limit) {
			int i = from;
			while (i < limit && isSpace(text[i])) {
				i++;
			}
			return i;
		}

		private int token(int from, int limit) {
			int i = from;
			while (i < limit && !isSpace(text[i])) {
				i++;
			}
			return i;
		}
	}

	/**
	 * The index of the first LF in {@code text[from, end)}, or {@code end}. Looks at eight bytes at a time: most of
	 * an exposition is lines a selective parse skips whole, so this scan is most of its work.
	 */
	static int indexOfNewline(byte[] text, int from, int end) {
		int i = from;
		for (; i + Long.BYTES <= end; i += Long.BYTES) {
			long word = (long) LONGS.get(text, i) ^ EIGHT_NEWLINES;
			// a byte of word is zero where text holds LF; the lowest such byte sets the lowest flag
			long zeroBytes = (word - 0x0101010101010101L) & ~word & 0x8080808080808080L;
			if (zeroBytes != 0) {
				return i + (Long.numberOfTrailingZeros(zeroBytes) >>> 3);
			}
		}
		for (; i < end; i++) {
			if (text[i] == '\n') {
				return i;
			}
		}
		return end;
	}

	private static boolean isSpace(byte c) {
		return c == ' ' || c == '\t';
	}

	private static boolean isDigit(byte c) {
		return c >= '0' && c <= '9';
	}

	/** Selected names grouped by length, so a line's name is compared only with names of its own length. */
	private static final class NameTable {

		private final Set<String> names;

		private final byte[][][] bytesByLength;

		private final String[][] namesByLength;

		NameTable(Set<String> names) {
			int maxLength = 0;
			for (String name : names) {
				if (!isValidMetricName(name)) {
					throw new IllegalArgumentException("not a valid metric name: '" + name + "'");
				}
				maxLength = Math.max(maxLength, name.length());
			}
			this.names = Set.copyOf(names);
			this.bytesByLength = new byte[maxLength + 1][][];
			this.namesByLength = new String[maxLength + 1][];
			for (String name : names) {
				int length = name.length();
				String[] sameLength = (namesByLength[length] != null)
						? Arrays.copyOf(namesByLength[length], namesByLength[length].length + 1) : new String[1];
				sameLength[sameLength.length - 1] = name;
				namesByLength[length] = sameLength;
				byte[][] sameLengthBytes = new byte[sameLength.length][];
				for (int k = 0; k < sameLength.length; k++) {
					sameLengthBytes[k] = sameLength[k].getBytes(StandardCharsets.ISO_8859_1);
				}
				bytesByLength[length] = sameLengthBytes;
			}
		}

		/** The selected name equal to {@code text[from, to)}, or {@code null}. */
		String lookup(byte[] text, int from, int to) {
			int length = to - from;
			if (length >= bytesByLength.length || bytesByLength[length] == null) {
				return null;
			}
			byte[][] candidates = bytesByLength[length];
			for (int k = 0; k < candidates.length; k++) {
				if (Arrays.equals(candidates[k], 0, length, text, from, to)) {
					return namesByLength[length][k];
				}
			}
			return null;
		}
	}
}
