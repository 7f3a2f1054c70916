package io.infergate.tokenizers.template;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Python's string semantics: whitespace and line-break classes, strip/split/splitlines, repr of strings and floats,
 * case conversions and character-class predicates. Indexes are code points, as in Python.
 */
final class Strings {

	private Strings() {
	}

	/** Python's {@code str.isspace()} for one character (all such characters are in the BMP). */
	static boolean isSpace(int c) {
		return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 || c == 0x1680
				|| (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f
				|| c == 0x3000;
	}

	static boolean isLineBreak(int c) {
		return (c >= 0x0a && c <= 0x0d) || (c >= 0x1c && c <= 0x1e) || c == 0x85 || c == 0x2028 || c == 0x2029;
	}

	static boolean hasSurrogates(String s) {
		for (int i = 0; i < s.length(); i++) {
			if (Character.isSurrogate(s.charAt(i))) {
				return true;
			}
		}
		return false;
	}

	/** Python's {@code len(s)}. */
	static int length(String s) {
		return hasSurrogates(s) ? s.codePointCount(0, s.length()) : s.length();
	}

	/** The char offset of a code point index (clamped to the string). */
	static int offset(String s, int codePoints, boolean surrogates) {
		if (!surrogates) {
			return Math.min(codePoints, s.length());
		}
		int total = s.codePointCount(0, s.length());
		return s.offsetByCodePoints(0, Math.min(codePoints, total));
	}

	private static boolean inSet(String chars, int cp) {
		return (chars == null) ? isSpace(cp) : chars.indexOf(cp) >= 0;
	}

	static String strip(String s, String chars) {
		return rstrip(lstrip(s, chars), chars);
	}

	static String lstrip(String s, String chars) {
		int i = 0;
		while (i < s.length()) {
			int cp = s.codePointAt(i);
			if (!inSet(chars, cp)) {
				break;
			}
			i += Character.charCount(cp);
		}
		return s.substring(i);
	}

	static String rstrip(String s, String chars) {
		int i = s.length();
		while (i > 0) {
			int cp = s.codePointBefore(i);
			if (!inSet(chars, cp)) {
				break;
			}
			i -= Character.charCount(cp);
		}
		return s.substring(0, i);
	}

	static List<Object> split(String s, String sep, int maxsplit) {
		List<Object> parts = new ArrayList<>();
		if (sep == null) {
			int n = s.length();
			int i = 0;
			while (true) {
				while (i < n && isSpace(s.charAt(i))) {
					i++;
				}
				if (i >= n) {
					break;
				}
				if (maxsplit >= 0 && parts.size() == maxsplit) {
					parts.add(s.substring(i));
					break;
				}
				int start = i;
				while (i < n && !isSpace(s.charAt(i))) {
					i++;
				}
				parts.add(s.substring(start, i));
			}
			return parts;
		}
		if (sep.isEmpty()) {
			throw new TemplateException("empty separator");
		}
		int start = 0;
		while (maxsplit < 0 || parts.size() < maxsplit) {
			int idx = s.indexOf(sep, start);
			if (idx < 0) {
				break;
			}
			parts.add(s.substring(start, idx));
			start = idx + sep.length();
		}
		parts.add(s.substring(start));
		return parts;
	}

	static List<Object> rsplit(String s, String sep, int maxsplit) {
		List<Object> parts = new ArrayList<>();
		if (sep == null) {
			int i = s.length();
			while (true) {
				while (i > 0 && isSpace(s.charAt(i - 1))) {
					i--;
				}
				if (i <= 0) {
					break;
				}
				if (maxsplit >= 0 && parts.size() == maxsplit) {
					parts.add(s.substring(0, i));
					break;
				}
				int end = i;
				while (i > 0 && !isSpace(s.charAt(i - 1))) {
					i--;
				}
				parts.add(s.substring(i, end));
			}
		}
		else {
			if (sep.isEmpty()) {
				throw new TemplateException("empty separator");
			}
			int end = s.length();
			while (maxsplit < 0 || parts.size() < maxsplit) {
				int idx = s.lastIndexOf(sep, end - sep.length());
				if (idx < 0) {
					break;
				}
				parts.add(s.substring(idx + sep.length(), end));
				end = idx;
			}
			parts.add(s.substring(0, end));
		}
		java.util.Collections.reverse(parts);
		return parts;
	}

	static List<Object> splitlines(String s, boolean keepends) {
		List<Object> lines = new ArrayList<>();
		int n = s.length();
		int start = 0;
		int i = 0;
		while (i < n) {
			char c = s.charAt(i);
			if (!isLineBreak(c)) {
				i++;
				continue;
			}
			int end = i + ((c == '\r' && i + 1 < n && s.charAt(i + 1) == '\n') ? 2 : 1);
			lines.add(s.substring(start, keepends ? end : i));
			start = end;
			i = end;
		}
		if (start < n) {
			lines.add(s.substring(start));
		}
		return lines;
	}

	/** Python's {@code repr(str)}. */
	static String repr(String s) {
		char quote = (s.indexOf('\'') >= 0 && s.indexOf('"') < 0) ? '"' : '\'';
		StringBuilder sb = new StringBuilder(s.length() + 2).append(quote);
		for (int i = 0; i < s.length();) {
			int cp = s.codePointAt(i);
			i += Character.charCount(cp);
			if (cp == quote || cp == '\\') {
				sb.append('\\').appendCodePoint(cp);
			}
			else if (cp == '\t') {
				sb.append("\\t");
			}
			else if (cp == '\n') {
				sb.append("\\n");
			}
			else if (cp == '\r') {
				sb.append("\\r");
			}
			else if (cp < 0x20 || cp == 0x7f) {
				sb.append("\\x").append(hex(cp, 2));
			}
			else if (cp < 0x7f || isPrintable(cp)) {
				sb.appendCodePoint(cp);
			}
			else if (cp <= 0xff) {
				sb.append("\\x").append(hex(cp, 2));
			}
			else if (cp <= 0xffff) {
				sb.append("\\u").append(hex(cp, 4));
			}
			else {
				sb.append("\\U").append(hex(cp, 8));
			}
		}
		return sb.append(quote).toString();
	}

	/** Lowercase hex digits, zero-padded to a width. */
	static String hex(int value, int width) {
		String digits = Integer.toHexString(value);
		return "0".repeat(Math.max(0, width - digits.length())) + digits;
	}

	static boolean isPrintable(int cp) {
		if (cp == ' ') {
			return true;
		}
		return switch (Character.getType(cp)) {
			case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
					Character.UNASSIGNED, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
					Character.SPACE_SEPARATOR ->
				false;
			default -> true;
		};
	}

	/** Python's {@code repr(float)}: the shortest digits that round-trip, fixed notation for 1e-4 <= |x| < 1e16. */
	static String floatRepr(double d) {
		if (Double.isNaN(d)) {
			return "nan";
		}
		if (Double.isInfinite(d)) {
			return (d > 0) ? "inf" : "-inf";
		}
		if (d == 0) {
			return (1 / d < 0) ? "-0.0" : "0.0";
		}
		BigDecimal exact = new BigDecimal(Math.abs(d));
		BigDecimal rounded = exact;
		for (int precision = 1; precision <= 17; precision++) {
			rounded = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
			if (rounded.doubleValue() == Math.abs(d)) {
				break;
			}
		}
		rounded = rounded.stripTrailingZeros();
		String digits = rounded.unscaledValue().toString();
		int exponent = digits.length() - 1 - rounded.scale();
		StringBuilder sb = new StringBuilder(24);
		if (d < 0) {
			sb.append('-');
		}
		if (exponent >= -4 && exponent < 16) {
			int point = exponent + 1;
			if (point <= 0) {
				sb.append("0.").append("0".repeat(-point)).append(digits);
			}
			else if (point >= digits.length()) {
				sb.append(digits).append("0".repeat(point - digits.length())).append(".0");
			}
			else {
				sb.append(digits, 0, point).append('.').append(digits, point, digits.length());
			}
		}
		else {
			sb.append(digits.charAt(0));
			if (digits.length() > 1) {
				sb.append('.').append(digits, 1, digits.length());
			}
			sb.append('e').append(exponent < 0 ? '-' : '+');
			int abs = Math.abs(exponent);
			if (abs < 10) {
				sb.append('0');
			}
			sb.append(abs);
		}
		return sb.toString();
	}

	static String lower(String s) {
		return s.toLowerCase(Locale.ROOT);
	}

	static String upper(String s) {
		return s.toUpperCase(Locale.ROOT);
	}

	private static boolean isCased(int cp) {
		return Character.isUpperCase(cp) || Character.isLowerCase(cp) || Character.isTitleCase(cp);
	}

	/** Python's {@code str.title()}. */
	static String title(String s) {
		StringBuilder sb = new StringBuilder(s.length());
		boolean previousCased = false;
		for (int i = 0; i < s.length();) {
			int cp = s.codePointAt(i);
			i += Character.charCount(cp);
			if (previousCased) {
				sb.append(lower(new String(Character.toChars(cp))));
			}
			else {
				sb.appendCodePoint(Character.toTitleCase(cp));
			}
			previousCased = isCased(cp);
		}
		return sb.toString();
	}

	/** Python's {@code str.capitalize()}. */
	static String capitalize(String s) {
		if (s.isEmpty()) {
			return s;
		}
		int first = s.codePointAt(0);
		return new StringBuilder().appendCodePoint(Character.toTitleCase(first))
			.append(lower(s.substring(Character.charCount(first))))
			.toString();
	}

	static String swapcase(String s) {
		StringBuilder sb = new StringBuilder(s.length());
		s.codePoints().forEach((cp) -> {
			String c = new String(Character.toChars(cp));
			sb.append(Character.isUpperCase(cp) ? lower(c) : Character.isLowerCase(cp) ? upper(c) : c);
		});
		return sb.toString();
	}

	/** jinja2's {@code title} filter: words start after {@code -}, whitespace, or an opening bracket. */
	static String titleFilter(String s) {
		StringBuilder sb = new StringBuilder(s.length());
		boolean wordStart = true;
		for (int i = 0; i < s.length();) {
			int cp = s.codePointAt(i);
			i += Character.charCount(cp);
			boolean separator = cp == '-' || isSpace(cp) || cp == '(' || cp == '{' || cp == '[' || cp == '<';
			String c = new String(Character.toChars(cp));
			sb.append((wordStart || separator) ? upper(c) : lower(c));
			wordStart = separator;
		}
		return sb.toString();
	}

	static boolean isDigit(int cp) {
		return Character.isDigit(cp) || (Character.getType(cp) == Character.OTHER_NUMBER && Character.digit(cp, 10) >= 0)
				|| cp == 0xb2 || cp == 0xb3 || cp == 0xb9;
	}

	static boolean isAlnum(int cp) {
		return Character.isLetter(cp) || Character.isDigit(cp) || isDigit(cp) || isNumeric(cp);
	}

	static boolean isNumeric(int cp) {
		int type = Character.getType(cp);
		return type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER
				|| type == Character.OTHER_NUMBER;
	}

	interface CodePointTest {

		boolean test(int cp);

	}

	/** True if the string is non-empty and every code point passes. */
	static boolean all(String s, CodePointTest test) {
		if (s.isEmpty()) {
			return false;
		}
		for (int i = 0; i < s.length();) {
			int cp = s.codePointAt(i);
			if (!test.test(cp)) {
				return false;
			}
			i += Character.charCount(cp);
		}
		return true;
	}

	/** Python's {@code islower()} ({@code upper} false) or {@code isupper()}. */
	static boolean isCaseOnly(String s, boolean upper) {
		boolean cased = false;
		for (int i = 0; i < s.length();) {
			int cp = s.codePointAt(i);
			i += Character.charCount(cp);
			if (upper ? (Character.isLowerCase(cp) || Character.isTitleCase(cp))
					: (Character.isUpperCase(cp) || Character.isTitleCase(cp))) {
				return false;
			}
			cased |= upper ? Character.isUpperCase(cp) : Character.isLowerCase(cp);
		}
		return cased;
	}

	static boolean isTitle(String s) {
		boolean cased = false;
		boolean previousCased = false;
		for (int i = 0; i < s.length();) {
			int cp = s.codePointAt(i);
			i += Character.charCount(cp);
			if (Character.isUpperCase(cp) || Character.isTitleCase(cp)) {
				if (previousCased) {
					return false;
				}
				previousCased = true;
				cased = true;
			}
			else if (Character.isLowerCase(cp)) {
				if (!previousCased) {
					return false;
				}
				previousCased = true;
				cased = true;
			}
			else {
				previousCased = false;
			}
		}
		return cased;
	}

	/** Pads to a width in code points: align is one of {@code < > ^}. */
	static String pad(String s, int width, int fill, char align) {
		int length = length(s);
		if (width <= length) {
			return s;
		}
		Values.checkSize(width);
		int total = width - length;
		int left = switch (align) {
			case '>' -> total;
			case '^' -> total / 2;
			default -> 0;
		};
		String fillString = new String(Character.toChars(fill));
		return fillString.repeat(left) + s + fillString.repeat(total - left);
	}

	/** Python's {@code str.center}: the extra odd space goes left when the width and length are both odd. */
	static String center(String s, int width, int fill) {
		int length = length(s);
		if (width <= length) {
			return s;
		}
		Values.checkSize(width);
		int total = width - length;
		int left = total / 2 + (total & width & 1);
		String fillString = new String(Character.toChars(fill));
		return fillString.repeat(left) + s + fillString.repeat(total - left);
	}

	/** markupsafe's {@code escape}. */
	static String escapeHtml(String s) {
		StringBuilder sb = null;
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			String replacement = switch (c) {
				case '&' -> "&amp;";
				case '<' -> "&lt;";
				case '>' -> "&gt;";
				case '"' -> "&#34;";
				case '\'' -> "&#39;";
				default -> null;
			};
			if (replacement != null && sb == null) {
				sb = new StringBuilder(s.length() + 16).append(s, 0, i);
			}
			if (sb != null) {
				if (replacement != null) {
					sb.append(replacement);
				}
				else {
					sb.append(c);
				}
			}
		}
		return (sb != null) ? sb.toString() : s;
	}

}
