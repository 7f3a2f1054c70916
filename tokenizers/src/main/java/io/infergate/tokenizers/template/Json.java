package io.infergate.tokenizers.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Python's {@code json.dumps(value, ensure_ascii=..., indent=..., separators=..., sort_keys=...)}, which is what
 * Hugging Face's {@code tojson} filter calls.
 */
final class Json {

	private final boolean ensureAscii;

	private final String indent;

	private final String itemSeparator;

	private final String keySeparator;

	private final boolean sortKeys;

	private final StringBuilder out = new StringBuilder();

	private Json(boolean ensureAscii, String indent, String itemSeparator, String keySeparator, boolean sortKeys) {
		this.ensureAscii = ensureAscii;
		this.indent = indent;
		this.itemSeparator = itemSeparator;
		this.keySeparator = keySeparator;
		this.sortKeys = sortKeys;
	}

	/**
	 * Serializes a value.
	 * @param indent null for one line, else an int (spaces) or a string per level
	 * @param separators null for the defaults, else a pair (item separator, key separator)
	 */
	static String dumps(Object value, boolean ensureAscii, Object indent, Object separators, boolean sortKeys) {
		String indentString = null;
		if (indent instanceof String s) {
			indentString = s;
		}
		else if (indent != null && !(indent instanceof Undefined)) {
			indentString = " ".repeat((int) Math.max(0, Math.min(1024, Values.index(indent, "indent"))));
		}
		String itemSeparator = (indentString != null) ? "," : ", ";
		String keySeparator = ": ";
		if (separators != null) {
			List<Object> pair = Values.unpack(separators, 2);
			itemSeparator = Values.str(pair.get(0));
			keySeparator = Values.str(pair.get(1));
		}
		Json json = new Json(ensureAscii, indentString, itemSeparator, keySeparator, sortKeys);
		json.write(value, 0);
		return json.out.toString();
	}

	private void write(Object value, int level) {
		Values.checkNesting(level);
		Values.checkSize(this.out.length());
		if (value == null) {
			this.out.append("null");
		}
		else if (value instanceof String s) {
			string(s);
		}
		else if (value instanceof Boolean b) {
			this.out.append(b ? "true" : "false");
		}
		else if (Values.isInt(value)) {
			this.out.append(value);
		}
		else if (Values.isFloat(value)) {
			this.out.append(number(Values.toDouble(value)));
		}
		else if (value instanceof List<?> list && !(value instanceof PyRange)) {
			array(list, level);
		}
		else if (value instanceof Map<?, ?> map) {
			object(map, level);
		}
		else {
			throw new TemplateException("Object of type " + Values.typeName(value) + " is not JSON serializable");
		}
	}

	private static String number(double d) {
		if (Double.isNaN(d)) {
			return "NaN";
		}
		if (Double.isInfinite(d)) {
			return (d > 0) ? "Infinity" : "-Infinity";
		}
		return Strings.floatRepr(d);
	}

	private void newline(int level) {
		this.out.append('\n');
		for (int i = 0; i < level; i++) {
			this.out.append(this.indent);
		}
	}

	private void array(List<?> list, int level) {
		if (list.isEmpty()) {
			this.out.append("[]");
			return;
		}
		this.out.append('[');
		if (this.indent != null) {
			newline(level + 1);
		}
		for (int i = 0; i < list.size(); i++) {
			if (i > 0) {
				this.out.append(this.itemSeparator);
				if (this.indent != null) {
					newline(level + 1);
				}
			}
			write(list.get(i), level + 1);
		}
		if (this.indent != null) {
			newline(level);
		}
		this.out.append(']');
	}

	private void object(Map<?, ?> map, int level) {
		if (map.isEmpty()) {
			this.out.append("{}");
			return;
		}
		List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
		if (this.sortKeys) {
			entries.sort((a, b) -> Values.compare("<", a.getKey(), b.getKey()) ? -1
					: Values.compare("<", b.getKey(), a.getKey()) ? 1 : 0);
		}
		this.out.append('{');
		if (this.indent != null) {
			newline(level + 1);
		}
		boolean first = true;
		for (Map.Entry<?, ?> entry : entries) {
			if (!first) {
				this.out.append(this.itemSeparator);
				if (this.indent != null) {
					newline(level + 1);
				}
			}
			first = false;
			string(key(entry.getKey()));
			this.out.append(this.keySeparator);
			write(entry.getValue(), level + 1);
		}
		if (this.indent != null) {
			newline(level);
		}
		this.out.append('}');
	}

	private static String key(Object key) {
		if (key instanceof String s) {
			return s;
		}
		if (key == null) {
			return "null";
		}
		if (key instanceof Boolean b) {
			return b ? "true" : "false";
		}
		if (Values.isInt(key)) {
			return key.toString();
		}
		if (Values.isFloat(key)) {
			return number(Values.toDouble(key));
		}
		throw new TemplateException(
				"keys must be str, int, float, bool or None, not " + Values.typeName(key));
	}

	private void string(String s) {
		StringBuilder sb = this.out;
		sb.append('"');
		int n = s.length();
		int run = 0;
		for (int i = 0; i < n; i++) {
			char c = s.charAt(i);
			String escape = null;
			if (c < 0x20 || c == '"' || c == '\\' || (this.ensureAscii && c > 0x7e)) {
				escape = switch (c) {
					case '"' -> "\\\"";
					case '\\' -> "\\\\";
					case '\n' -> "\\n";
					case '\r' -> "\\r";
					case '\t' -> "\\t";
					case '\b' -> "\\b";
					case '\f' -> "\\f";
					default -> unicodeEscape(c);
				};
			}
			if (escape != null) {
				sb.append(s, run, i).append(escape);
				run = i + 1;
			}
		}
		sb.append(s, run, n).append('"');
	}

	private static String unicodeEscape(char c) {
		String hex = Integer.toHexString(c);
		return "\\u" + "0000".substring(hex.length()) + hex;
	}

}
