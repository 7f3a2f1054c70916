package io.infergate.tokenizers.template;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Splits a template into tokens the way jinja2's lexer does with {@code trim_blocks} and {@code lstrip_blocks}
 * enabled: whitespace control ({@code -} and {@code +}), raw blocks, comments, one trailing newline dropped and
 * newlines normalized to {@code \n}.
 */
final class Lexer {

	enum Type {

		DATA, VARIABLE_BEGIN, VARIABLE_END, BLOCK_BEGIN, BLOCK_END, NAME, STRING, INTEGER, FLOAT, OPERATOR, EOF

	}

	record Token(Type type, String text, Object value, int pos) {

		boolean isName(String name) {
			return this.type == Type.NAME && this.text.equals(name);
		}

		boolean isOp(String op) {
			return this.type == Type.OPERATOR && this.text.equals(op);
		}

		String describe() {
			return switch (this.type) {
				case DATA -> "template data / text";
				case VARIABLE_BEGIN -> "begin of print statement";
				case VARIABLE_END -> "end of print statement";
				case BLOCK_BEGIN -> "begin of statement block";
				case BLOCK_END -> "end of statement block";
				case EOF -> "end of template";
				case INTEGER -> "integer";
				case FLOAT -> "float";
				case STRING -> "string";
				default -> this.text;
			};
		}

	}

	private static final String[] OPERATORS_2 = { "//", "**", "==", "!=", ">=", "<=" };

	private static final String OPERATORS_1 = "+-/*%~[](){}><=.:|,;";

	private final String src;

	private final int length;

	private final List<Token> tokens = new ArrayList<>();

	private int pos;

	private boolean lineStarting = true;

	private Lexer(String source) {
		this.src = source;
		this.length = source.length();
	}

	/** Normalizes newlines and drops one trailing newline, as jinja2 does before lexing. */
	static String normalize(String source) {
		StringBuilder sb = null;
		for (int i = 0; i < source.length(); i++) {
			if (source.charAt(i) == '\r') {
				sb = new StringBuilder(source.length());
				break;
			}
		}
		String s = source;
		if (sb != null) {
			for (int i = 0; i < source.length(); i++) {
				char c = source.charAt(i);
				if (c == '\r') {
					sb.append('\n');
					if (i + 1 < source.length() && source.charAt(i + 1) == '\n') {
						i++;
					}
				}
				else {
					sb.append(c);
				}
			}
			s = sb.toString();
		}
		return s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
	}

	/** Tokenizes a source already passed through {@link #normalize(String)}. */
	static List<Token> tokenize(String normalizedSource) {
		Lexer lexer = new Lexer(normalizedSource);
		lexer.run();
		return lexer.tokens;
	}

	private void run() {
		while (this.pos < this.length) {
			int tag = this.src.indexOf('{', this.pos);
			while (tag >= 0 && (tag + 1 >= this.length || "{%#".indexOf(this.src.charAt(tag + 1)) < 0)) {
				tag = this.src.indexOf('{', tag + 1);
			}
			if (tag < 0) {
				emit(Type.DATA, this.src.substring(this.pos), this.pos);
				this.pos = this.length;
				break;
			}
			char kind = this.src.charAt(tag + 1);
			int after = tag + 2;
			char sign = (after < this.length && (this.src.charAt(after) == '-' || this.src.charAt(after) == '+'))
					? this.src.charAt(after) : 0;
			int rawEnd = (kind == '%') ? matchRawBegin(tag) : -1;
			String text = this.src.substring(this.pos, tag);
			text = stripBefore(text, sign, kind != '{');
			if (!text.isEmpty()) {
				emit(Type.DATA, text, this.pos);
			}
			if (rawEnd >= 0) {
				this.lineStarting = this.src.charAt(rawEnd - 1) == '\n';
				this.pos = rawEnd;
				lexRaw(tag);
			}
			else if (kind == '#') {
				lexComment(after + (sign != 0 ? 1 : 0), tag);
			}
			else {
				this.lineStarting = false;
				boolean block = kind == '%';
				emit(block ? Type.BLOCK_BEGIN : Type.VARIABLE_BEGIN, block ? "{%" : "{{", tag);
				this.pos = after + (sign != 0 ? 1 : 0);
				lexTag(block);
			}
		}
		emit(Type.EOF, "", this.length);
	}

	/** Applies the {@code -} sign or lstrip_blocks to the text before a tag. */
	private String stripBefore(String text, char sign, boolean lstrip) {
		if (sign == '-') {
			return Strings.rstrip(text, null);
		}
		if (sign != '+' && lstrip) {
			int lineStart = text.lastIndexOf('\n') + 1;
			if ((lineStart > 0 || this.lineStarting) && lineStart < text.length()) {
				for (int i = lineStart; i < text.length(); i++) {
					if (!Strings.isSpace(text.charAt(i))) {
						return text;
					}
				}
				return text.substring(0, lineStart);
			}
		}
		return text;
	}

	/** Matches {@code {%[-+]?\s*raw\s*(-%}\s*|%})} at the tag; returns the end or -1. */
	private int matchRawBegin(int tag) {
		int i = tag + 2;
		if (i < this.length && (this.src.charAt(i) == '-' || this.src.charAt(i) == '+')) {
			i++;
		}
		i = skipSpace(i);
		if (!this.src.startsWith("raw", i)) {
			return -1;
		}
		i = skipSpace(i + 3);
		if (this.src.startsWith("-%}", i)) {
			return skipSpace(i + 3);
		}
		return this.src.startsWith("%}", i) ? i + 2 : -1;
	}

	private void lexRaw(int rawTag) {
		int search = this.pos;
		while (true) {
			int tag = this.src.indexOf("{%", search);
			if (tag < 0) {
				throw syntax("Missing end of raw directive", rawTag);
			}
			int i = tag + 2;
			char sign = 0;
			if (i < this.length && (this.src.charAt(i) == '-' || this.src.charAt(i) == '+')) {
				sign = this.src.charAt(i);
				i++;
			}
			i = skipSpace(i);
			if (this.src.startsWith("endraw", i)) {
				int end = endOfBlockEnd(skipSpace(i + 6));
				if (end >= 0) {
					String text = stripBefore(this.src.substring(this.pos, tag), sign, true);
					if (!text.isEmpty()) {
						emit(Type.DATA, text, this.pos);
					}
					this.lineStarting = this.src.charAt(end - 1) == '\n';
					this.pos = end;
					return;
				}
			}
			search = tag + 1;
		}
	}

	/** Matches a block end ({@code +%}}, {@code -%}\s*} or {@code %}\n?}) at i; returns its end or -1. */
	private int endOfBlockEnd(int i) {
		if (this.src.startsWith("+%}", i)) {
			return i + 3;
		}
		if (this.src.startsWith("-%}", i)) {
			return skipSpace(i + 3);
		}
		if (this.src.startsWith("%}", i)) {
			return (i + 2 < this.length && this.src.charAt(i + 2) == '\n') ? i + 3 : i + 2;
		}
		return -1;
	}

	private void lexComment(int start, int tag) {
		for (int i = start; i < this.length; i++) {
			char c = this.src.charAt(i);
			int end = -1;
			if ((c == '+' || c == '-') && this.src.startsWith("#}", i + 1)) {
				end = (c == '+') ? i + 3 : skipSpace(i + 3);
			}
			else if (c == '#' && this.src.startsWith("#}", i)) {
				end = (i + 2 < this.length && this.src.charAt(i + 2) == '\n') ? i + 3 : i + 2;
			}
			if (end >= 0) {
				this.lineStarting = this.src.charAt(end - 1) == '\n';
				this.pos = end;
				return;
			}
		}
		throw syntax("Missing end of comment tag", tag);
	}

	private void lexTag(boolean block) {
		Deque<Character> balance = new ArrayDeque<>();
		while (true) {
			int p = this.pos;
			if (p >= this.length) {
				return;
			}
			if (balance.isEmpty()) {
				int end = block ? endOfBlockEnd(p) : endOfVariableEnd(p);
				if (end >= 0) {
					emit(block ? Type.BLOCK_END : Type.VARIABLE_END, block ? "%}" : "}}", p);
					this.lineStarting = this.src.charAt(end - 1) == '\n';
					this.pos = end;
					return;
				}
			}
			char c = this.src.charAt(p);
			if (Strings.isSpace(c)) {
				this.pos = skipSpace(p);
				continue;
			}
			int end;
			if ((end = matchFloat(p)) > 0) {
				String text = this.src.substring(p, end);
				emit(Type.FLOAT, text, Double.parseDouble(text.replace("_", "")), p);
			}
			else if ((end = matchInteger(p)) > 0) {
				String text = this.src.substring(p, end);
				emit(Type.INTEGER, text, parseInteger(text.replace("_", "")), p);
			}
			else if ((end = matchName(p)) > 0) {
				emit(Type.NAME, this.src.substring(p, end), null, p);
			}
			else if ((end = matchString(p)) > 0) {
				emit(Type.STRING, this.src.substring(p, end), unescape(this.src.substring(p + 1, end - 1), p), p);
			}
			else if ((end = matchOperator(p)) > 0) {
				String op = this.src.substring(p, end);
				balance(balance, op, p);
				emit(Type.OPERATOR, op, null, p);
			}
			else {
				throw syntax("unexpected char " + Strings.repr(String.valueOf(c)) + " at " + p, p);
			}
			this.pos = end;
		}
	}

	private int endOfVariableEnd(int i) {
		if (this.src.startsWith("-}}", i)) {
			return skipSpace(i + 3);
		}
		return this.src.startsWith("}}", i) ? i + 2 : -1;
	}

	private void balance(Deque<Character> balance, String op, int p) {
		char c = op.charAt(0);
		if (op.length() != 1) {
			return;
		}
		if (c == '{') {
			balance.push('}');
		}
		else if (c == '(') {
			balance.push(')');
		}
		else if (c == '[') {
			balance.push(']');
		}
		else if (c == '}' || c == ')' || c == ']') {
			if (balance.isEmpty()) {
				throw syntax("unexpected '" + c + "'", p);
			}
			char expected = balance.pop();
			if (expected != c) {
				throw syntax("unexpected '" + c + "', expected '" + expected + "'", p);
			}
		}
	}

	private int skipSpace(int i) {
		while (i < this.length && Strings.isSpace(this.src.charAt(i))) {
			i++;
		}
		return i;
	}

	private boolean digit(int i) {
		return i < this.length && this.src.charAt(i) >= '0' && this.src.charAt(i) <= '9';
	}

	/** Matches {@code \d+(_\d+)*} at i; returns the end or -1. */
	private int digits(int i) {
		if (!digit(i)) {
			return -1;
		}
		while (true) {
			while (digit(i)) {
				i++;
			}
			if (i < this.length && this.src.charAt(i) == '_' && digit(i + 1)) {
				i++;
			}
			else {
				return i;
			}
		}
	}

	private int matchFloat(int p) {
		if (p > 0 && this.src.charAt(p - 1) == '.') {
			return -1;
		}
		int intEnd = digits(p);
		if (intEnd < 0) {
			return -1;
		}
		int fracEnd = (intEnd < this.length && this.src.charAt(intEnd) == '.') ? digits(intEnd + 1) : -1;
		int expStart = (fracEnd > 0) ? fracEnd : intEnd;
		if (expStart < this.length && (this.src.charAt(expStart) == 'e' || this.src.charAt(expStart) == 'E')) {
			int i = expStart + 1;
			if (i < this.length && (this.src.charAt(i) == '+' || this.src.charAt(i) == '-')) {
				i++;
			}
			int expEnd = digits(i);
			if (expEnd > 0) {
				return expEnd;
			}
		}
		return fracEnd;
	}

	private int matchInteger(int p) {
		char c = this.src.charAt(p);
		if (c == '0' && p + 1 < this.length) {
			char x = Character.toLowerCase(this.src.charAt(p + 1));
			String allowed = (x == 'b') ? "01" : (x == 'o') ? "01234567" : (x == 'x') ? "0123456789abcdef" : null;
			if (allowed != null) {
				int i = p + 2;
				int end = -1;
				while (true) {
					int j = (i < this.length && this.src.charAt(i) == '_') ? i + 1 : i;
					if (j < this.length && allowed.indexOf(Character.toLowerCase(this.src.charAt(j))) >= 0) {
						i = j + 1;
						end = i;
					}
					else {
						break;
					}
				}
				if (end > 0) {
					return end;
				}
			}
		}
		if (c >= '1' && c <= '9') {
			int i = p + 1;
			while (true) {
				int j = (i < this.length && this.src.charAt(i) == '_') ? i + 1 : i;
				if (digit(j)) {
					i = j + 1;
				}
				else {
					return i;
				}
			}
		}
		if (c == '0') {
			int i = p + 1;
			while (true) {
				int j = (i < this.length && this.src.charAt(i) == '_') ? i + 1 : i;
				if (j < this.length && this.src.charAt(j) == '0') {
					i = j + 1;
				}
				else {
					return i;
				}
			}
		}
		return -1;
	}

	private static Object parseInteger(String text) {
		int radix = 10;
		String digits = text;
		if (text.length() > 1 && text.charAt(0) == '0') {
			char x = Character.toLowerCase(text.charAt(1));
			radix = (x == 'b') ? 2 : (x == 'o') ? 8 : (x == 'x') ? 16 : 10;
			digits = (radix == 10) ? text : text.substring(2);
		}
		return Values.normalize(new BigInteger(digits, radix));
	}

	private int matchName(int p) {
		int cp = this.src.codePointAt(p);
		if (cp != '_' && !Character.isUnicodeIdentifierStart(cp)) {
			return -1;
		}
		int i = p + Character.charCount(cp);
		while (i < this.length) {
			cp = this.src.codePointAt(i);
			if (cp != '_' && (!Character.isUnicodeIdentifierPart(cp) || Character.isIdentifierIgnorable(cp))) {
				break;
			}
			i += Character.charCount(cp);
		}
		return i;
	}

	private int matchString(int p) {
		char quote = this.src.charAt(p);
		if (quote != '\'' && quote != '"') {
			return -1;
		}
		for (int i = p + 1; i < this.length; i++) {
			char c = this.src.charAt(i);
			if (c == '\\') {
				i++;
			}
			else if (c == quote) {
				return i + 1;
			}
		}
		return -1;
	}

	private int matchOperator(int p) {
		for (String op : OPERATORS_2) {
			if (this.src.startsWith(op, p)) {
				return p + 2;
			}
		}
		return (OPERATORS_1.indexOf(this.src.charAt(p)) >= 0) ? p + 1 : -1;
	}

	/** Decodes Python string escapes as {@code unicode-escape} does. */
	private static String unescape(String s, int pos) {
		if (s.indexOf('\\') < 0) {
			return s;
		}
		StringBuilder sb = new StringBuilder(s.length());
		int n = s.length();
		for (int i = 0; i < n; i++) {
			char c = s.charAt(i);
			if (c != '\\' || i + 1 >= n) {
				sb.append(c);
				continue;
			}
			char e = s.charAt(++i);
			switch (e) {
				case '\n' -> {
				}
				case '\\', '\'', '"' -> sb.append(e);
				case 'a' -> sb.append('\u0007');
				case 'b' -> sb.append('\b');
				case 'f' -> sb.append('\f');
				case 'n' -> sb.append('\n');
				case 'r' -> sb.append('\r');
				case 't' -> sb.append('\t');
				case 'v' -> sb.append('\u000b');
				case '0', '1', '2', '3', '4', '5', '6', '7' -> {
					int value = e - '0';
					for (int k = 0; k < 2 && i + 1 < n && s.charAt(i + 1) >= '0' && s.charAt(i + 1) <= '7'; k++) {
						value = value * 8 + (s.charAt(++i) - '0');
					}
					sb.appendCodePoint(value);
				}
				case 'x', 'u', 'U' -> {
					int count = (e == 'x') ? 2 : (e == 'u') ? 4 : 8;
					int value = 0;
					for (int k = 0; k < count; k++) {
						int d = (i + 1 < n) ? Character.digit(s.charAt(i + 1), 16) : -1;
						if (d < 0 || s.charAt(i + 1) > 'f') {
							throw syntax("truncated \\" + e + "XX escape", pos);
						}
						value = value * 16 + d;
						i++;
					}
					if (value > Character.MAX_CODE_POINT) {
						throw syntax("illegal Unicode character", pos);
					}
					sb.appendCodePoint(value);
				}
				case 'N' -> {
					int close = (i + 1 < n && s.charAt(i + 1) == '{') ? s.indexOf('}', i + 2) : -1;
					int cp = -1;
					if (close > 0) {
						try {
							cp = Character.codePointOf(s.substring(i + 2, close));
						}
						catch (IllegalArgumentException ex) {
							cp = -1;
						}
					}
					if (cp < 0) {
						throw syntax("malformed \\N character escape", pos);
					}
					sb.appendCodePoint(cp);
					i = close;
				}
				default -> {
					sb.append('\\');
					if (e < 0x80) {
						sb.append(e);
					}
					else {
						int cp = s.codePointAt(i);
						i += Character.charCount(cp) - 1;
						String hex = Integer.toHexString(cp);
						sb.append((cp <= 0xff) ? "x" + pad(hex, 2) : (cp <= 0xffff) ? "u" + pad(hex, 4) : "U" + pad(hex, 8));
					}
				}
			}
		}
		return sb.toString();
	}

	private static String pad(String hex, int width) {
		return "0".repeat(Math.max(0, width - hex.length())) + hex;
	}

	private void emit(Type type, String text, int pos) {
		this.tokens.add(new Token(type, text, text, pos));
	}

	private void emit(Type type, String text, Object value, int pos) {
		this.tokens.add(new Token(type, text, value, pos));
	}

	static TemplateException syntax(String message, int pos) {
		return new TemplateException(message).at(pos);
	}

}
