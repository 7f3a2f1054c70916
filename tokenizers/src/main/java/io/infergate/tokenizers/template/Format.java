package io.infergate.tokenizers.template;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Python's string formatting: {@code str.format} with format specs, and printf-style {@code str % values}. */
final class Format {

	private Format() {
	}

	/** A parsed format spec: {@code [[fill]align][sign][#][0][width][,|_][.precision][type]}. */
	private static final class Spec {

		int fill = ' ';

		char align;

		char sign = '-';

		boolean alternate;

		int width = -1;

		char grouping;

		int precision = -1;

		char type;

		static Spec parse(String spec) {
			Spec s = new Spec();
			int i = 0;
			int n = spec.length();
			if (n >= 2 && "<>=^".indexOf(spec.charAt(spec.offsetByCodePoints(0, 1))) >= 0
					&& spec.codePointCount(0, n) >= 2) {
				s.fill = spec.codePointAt(0);
				i = Character.charCount(s.fill);
				s.align = spec.charAt(i++);
			}
			else if (n >= 1 && "<>=^".indexOf(spec.charAt(0)) >= 0) {
				s.align = spec.charAt(i++);
			}
			if (i < n && "+- ".indexOf(spec.charAt(i)) >= 0) {
				s.sign = spec.charAt(i++);
			}
			if (i < n && spec.charAt(i) == '#') {
				s.alternate = true;
				i++;
			}
			if (i < n && spec.charAt(i) == '0') {
				if (s.align == 0) {
					s.fill = '0';
					s.align = '=';
				}
				i++;
			}
			int start = i;
			while (i < n && Character.isDigit(spec.charAt(i))) {
				i++;
			}
			if (i > start) {
				s.width = Integer.parseInt(spec.substring(start, Math.min(i, start + 9)));
			}
			if (i < n && (spec.charAt(i) == ',' || spec.charAt(i) == '_')) {
				s.grouping = spec.charAt(i++);
			}
			if (i < n && spec.charAt(i) == '.') {
				start = ++i;
				while (i < n && Character.isDigit(spec.charAt(i))) {
					i++;
				}
				if (i == start) {
					throw new TemplateException("Format specifier missing precision");
				}
				s.precision = Integer.parseInt(spec.substring(start, Math.min(i, start + 9)));
			}
			if (i < n) {
				s.type = spec.charAt(i++);
			}
			if (i < n) {
				throw new TemplateException("Invalid format specifier '" + spec + "'");
			}
			return s;
		}

	}

	/** Python's {@code format(value, spec)}. */
	static String formatValue(Object value, String spec) {
		if (spec.isEmpty()) {
			return Values.str(value);
		}
		return apply(value, Spec.parse(spec));
	}

	private static String apply(Object value, Spec spec) {
		if (value instanceof String s) {
			if (spec.type != 0 && spec.type != 's') {
				throw new TemplateException("Unknown format code '" + spec.type + "' for object of type 'str'");
			}
			if (spec.align == '=') {
				throw new TemplateException("'=' alignment not allowed in string format specifier");
			}
			if (spec.precision >= 0 && spec.precision < Strings.length(s)) {
				s = s.substring(0, s.offsetByCodePoints(0, spec.precision));
			}
			return align(s, "", spec, '<');
		}
		if (Values.isInt(value) || value instanceof Boolean) {
			if ("eEfFgG%".indexOf(spec.type) >= 0 && spec.type != 0) {
				return formatFloat(Values.toDouble(value), spec);
			}
			return formatInt(Values.big(Values.integral(value)), spec);
		}
		if (Values.isFloat(value)) {
			return formatFloat(Values.toDouble(value), spec);
		}
		throw new TemplateException("unsupported format string passed to " + Values.typeName(value) + ".__format__");
	}

	private static String formatInt(BigInteger value, Spec spec) {
		String digits;
		String prefix = "";
		switch (spec.type) {
			case 0, 'd', 'n' -> digits = value.abs().toString();
			case 'x', 'X' -> {
				digits = value.abs().toString(16);
				prefix = spec.alternate ? "0x" : "";
				if (spec.type == 'X') {
					digits = digits.toUpperCase(Locale.ROOT);
					prefix = prefix.toUpperCase(Locale.ROOT);
				}
			}
			case 'o' -> {
				digits = value.abs().toString(8);
				prefix = spec.alternate ? "0o" : "";
			}
			case 'b' -> {
				digits = value.abs().toString(2);
				prefix = spec.alternate ? "0b" : "";
			}
			case 'c' -> {
				if (value.signum() < 0 || value.compareTo(BigInteger.valueOf(Character.MAX_CODE_POINT)) > 0) {
					throw new TemplateException("%c arg not in range(0x110000)");
				}
				return align(new String(Character.toChars(value.intValue())), "", spec, '<');
			}
			default -> throw new TemplateException("Unknown format code '" + spec.type + "' for object of type 'int'");
		}
		if (spec.grouping != 0) {
			digits = group(digits, spec.grouping, (spec.type == 0 || spec.type == 'd' || spec.type == 'n') ? 3 : 4);
		}
		return align(digits, sign(value.signum() < 0, spec) + prefix, spec, '>');
	}

	private static String sign(boolean negative, Spec spec) {
		if (negative) {
			return "-";
		}
		return (spec.sign == '+') ? "+" : (spec.sign == ' ') ? " " : "";
	}

	private static String group(String digits, char separator, int size) {
		int point = digits.indexOf('.');
		String integer = (point < 0) ? digits : digits.substring(0, point);
		StringBuilder sb = new StringBuilder();
		for (int i = 0; i < integer.length(); i++) {
			if (i > 0 && (integer.length() - i) % size == 0) {
				sb.append(separator);
			}
			sb.append(integer.charAt(i));
		}
		return sb.append((point < 0) ? "" : digits.substring(point)).toString();
	}

	private static String formatFloat(double value, Spec spec) {
		boolean negative = value < 0 || (value == 0 && 1 / value < 0);
		double abs = Math.abs(value);
		String body;
		char type = spec.type;
		boolean upper = Character.isUpperCase(type);
		if (Double.isNaN(value) || Double.isInfinite(value)) {
			body = Double.isNaN(value) ? "nan" : "inf";
			negative = value < 0;
			body = upper ? body.toUpperCase(Locale.ROOT) : body;
			if (type == '%') {
				body += "%";
			}
		}
		else {
			int precision = (spec.precision < 0) ? 6 : spec.precision;
			body = switch (Character.toLowerCase(type)) {
				case 'f' -> fixed(abs, precision);
				case 'e' -> scientific(abs, precision, spec.alternate);
				case '%' -> fixed(abs * 100, precision) + "%";
				case 'g' -> general(abs, precision, spec.alternate);
				case 0 -> (spec.precision < 0) ? Strings.floatRepr(abs) : pointed(general(abs, precision, false));
				default -> throw new TemplateException(
						"Unknown format code '" + type + "' for object of type 'float'");
			};
			body = upper ? body.toUpperCase(Locale.ROOT) : body;
			if (spec.grouping != 0) {
				body = group(body, spec.grouping, 3);
			}
		}
		return align(body, sign(negative, spec), spec, '>');
	}

	private static String pointed(String general) {
		return (general.indexOf('.') < 0 && general.indexOf('e') < 0) ? general + ".0" : general;
	}

	private static String fixed(double abs, int precision) {
		return new BigDecimal(abs).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
	}

	private static String scientific(double abs, int precision, boolean alternate) {
		if (abs == 0) {
			return "0" + ((precision > 0) ? "." + "0".repeat(precision) : alternate ? "." : "") + "e+00";
		}
		BigDecimal rounded = new BigDecimal(abs).round(new MathContext(precision + 1, RoundingMode.HALF_EVEN));
		String digits = rounded.unscaledValue().toString();
		digits = (digits + "0".repeat(precision + 1)).substring(0, precision + 1);
		int exponent = rounded.precision() - rounded.scale() - 1;
		String mantissa = digits.charAt(0) + ((precision > 0) ? "." + digits.substring(1) : alternate ? "." : "");
		int e = Math.abs(exponent);
		return mantissa + "e" + ((exponent < 0) ? "-" : "+") + ((e < 10) ? "0" : "") + e;
	}

	private static String general(double abs, int precision, boolean alternate) {
		int p = (precision == 0) ? 1 : precision;
		if (abs == 0) {
			return alternate ? "0." + "0".repeat(p - 1) : "0";
		}
		BigDecimal rounded = new BigDecimal(abs).round(new MathContext(p, RoundingMode.HALF_EVEN));
		int exponent = rounded.precision() - rounded.scale() - 1;
		String result;
		if (exponent >= -4 && exponent < p) {
			result = fixed(abs, p - 1 - exponent);
			if (!alternate && result.indexOf('.') >= 0) {
				result = Strings.rstrip(Strings.rstrip(result, "0"), ".");
			}
		}
		else {
			result = scientific(abs, p - 1, alternate);
			if (!alternate) {
				int e = result.indexOf('e');
				String mantissa = result.substring(0, e);
				if (mantissa.indexOf('.') >= 0) {
					mantissa = Strings.rstrip(Strings.rstrip(mantissa, "0"), ".");
				}
				result = mantissa + result.substring(e);
			}
		}
		return result;
	}

	private static String align(String body, String sign, Spec spec, char defaultAlign) {
		char align = (spec.align == 0) ? defaultAlign : spec.align;
		int length = Strings.length(body) + sign.length();
		if (spec.width <= length) {
			return sign + body;
		}
		Values.checkSize(spec.width);
		String fill = new String(Character.toChars(spec.fill));
		int total = spec.width - length;
		return switch (align) {
			case '<' -> sign + body + fill.repeat(total);
			case '^' -> fill.repeat(total / 2) + sign + body + fill.repeat(total - total / 2);
			case '=' -> sign + fill.repeat(total) + body;
			default -> fill.repeat(total) + sign + body;
		};
	}

	/** Python's {@code str.format(*args, **kwargs)} (through jinja2's sandboxed formatter). */
	static String format(String template, Args args) {
		return new FieldFormatter(args).format(template, 0);
	}

	private static final class FieldFormatter {

		private final Args args;

		private int autoIndex;

		private boolean manual;

		FieldFormatter(Args args) {
			this.args = args;
		}

		String format(String s, int depth) {
			if (depth > 2) {
				throw new TemplateException("Max string recursion exceeded");
			}
			StringBuilder sb = new StringBuilder();
			int n = s.length();
			for (int i = 0; i < n; i++) {
				char c = s.charAt(i);
				if (c == '{') {
					if (i + 1 < n && s.charAt(i + 1) == '{') {
						sb.append('{');
						i++;
						continue;
					}
					int level = 1;
					int j = i + 1;
					while (j < n && level > 0) {
						char d = s.charAt(j);
						level += (d == '{') ? 1 : (d == '}') ? -1 : 0;
						j++;
					}
					if (level > 0) {
						throw new TemplateException("expected '}' before end of string");
					}
					sb.append(field(s.substring(i + 1, j - 1), depth));
					Values.checkSize(sb.length());
					i = j - 1;
				}
				else if (c == '}') {
					if (i + 1 < n && s.charAt(i + 1) == '}') {
						sb.append('}');
						i++;
					}
					else {
						throw new TemplateException("Single '}' encountered in format string");
					}
				}
				else {
					sb.append(c);
				}
			}
			return sb.toString();
		}

		private String field(String field, int depth) {
			int end = 0;
			while (end < field.length() && field.charAt(end) != '!' && field.charAt(end) != ':') {
				if (field.charAt(end) == '[') {
					end = Math.max(end, field.indexOf(']', end));
					if (end < 0) {
						throw new TemplateException("Missing ']' in format string");
					}
				}
				end++;
			}
			String name = field.substring(0, end);
			char conversion = 0;
			String spec = "";
			if (end < field.length() && field.charAt(end) == '!') {
				if (end + 1 >= field.length()) {
					throw new TemplateException("end of string while looking for conversion specifier");
				}
				conversion = field.charAt(end + 1);
				end += 2;
				if (end < field.length() && field.charAt(end) != ':') {
					throw new TemplateException("expected ':' after conversion specifier");
				}
			}
			if (end < field.length()) {
				spec = format(field.substring(end + 1), depth + 1);
			}
			Object value = resolve(name);
			value = switch (conversion) {
				case 0 -> value;
				case 'r', 'a' -> Values.repr(value);
				case 's' -> Values.str(value);
				default -> throw new TemplateException("Unknown conversion specifier " + conversion);
			};
			return formatValue(value, spec);
		}

		private Object resolve(String name) {
			int i = 0;
			while (i < name.length() && name.charAt(i) != '.' && name.charAt(i) != '[') {
				i++;
			}
			String first = name.substring(0, i);
			Object value;
			if (first.isEmpty()) {
				if (this.manual) {
					throw new TemplateException(
							"cannot switch from manual field specification to automatic field numbering");
				}
				value = positional(this.autoIndex++);
			}
			else if (Character.isDigit(first.charAt(0)) && first.chars().allMatch(Character::isDigit)) {
				if (this.autoIndex > 0) {
					throw new TemplateException(
							"cannot switch from automatic field numbering to manual field specification");
				}
				this.manual = true;
				value = positional(Integer.parseInt(first));
			}
			else {
				if (!this.args.keywords.containsKey(first)) {
					throw new TemplateException("'" + first + "'");
				}
				value = this.args.keywords.get(first);
			}
			while (i < name.length()) {
				if (name.charAt(i) == '.') {
					int j = i + 1;
					while (j < name.length() && name.charAt(j) != '.' && name.charAt(j) != '[') {
						j++;
					}
					value = Values.getattr(value, name.substring(i + 1, j));
					i = j;
				}
				else {
					int j = name.indexOf(']', i);
					String key = name.substring(i + 1, j);
					boolean numeric = !key.isEmpty() && key.chars().allMatch(Character::isDigit);
					value = Values.getitem(value, numeric ? (Object) Long.parseLong(key) : key);
					i = j + 1;
				}
			}
			return value;
		}

		private Object positional(int index) {
			if (index >= this.args.positional.size()) {
				throw new TemplateException(
						"Replacement index " + index + " out of range for positional args tuple");
			}
			return this.args.positional.get(index);
		}

	}

	/** Python's printf-style {@code format % values}. */
	static String percent(String format, Object values) {
		List<Object> items = (values instanceof PyTuple tuple) ? tuple : Collections.singletonList(values);
		Map<?, ?> mapping = (values instanceof Map<?, ?> map) ? map : null;
		StringBuilder sb = new StringBuilder();
		int next = 0;
		int n = format.length();
		for (int i = 0; i < n; i++) {
			char c = format.charAt(i);
			if (c != '%') {
				sb.append(c);
				continue;
			}
			if (++i >= n) {
				throw new TemplateException("incomplete format");
			}
			Object value = null;
			boolean haveValue = false;
			if (format.charAt(i) == '(') {
				int close = format.indexOf(')', i);
				if (values instanceof Undefined u) {
					throw u.error();
				}
				if (mapping == null) {
					throw new TemplateException("format requires a mapping");
				}
				if (close < 0) {
					throw new TemplateException("incomplete format key");
				}
				String key = format.substring(i + 1, close);
				value = Values.mapGet(mapping, key);
				if (value == Scope.MISSING) {
					throw new TemplateException("'" + key + "'");
				}
				haveValue = true;
				i = close + 1;
			}
			Spec spec = new Spec();
			boolean zero = false;
			boolean left = false;
			for (; i < n && "-+ #0".indexOf(format.charAt(i)) >= 0; i++) {
				switch (format.charAt(i)) {
					case '-' -> left = true;
					case '+' -> spec.sign = '+';
					case ' ' -> spec.sign = (spec.sign == '+') ? '+' : ' ';
					case '#' -> spec.alternate = true;
					default -> zero = true;
				}
			}
			int start = i;
			while (i < n && Character.isDigit(format.charAt(i))) {
				i++;
			}
			spec.width = (i > start) ? Integer.parseInt(format.substring(start, Math.min(i, start + 9))) : -1;
			if (i < n && format.charAt(i) == '.') {
				start = ++i;
				while (i < n && Character.isDigit(format.charAt(i))) {
					i++;
				}
				spec.precision = (i > start) ? Integer.parseInt(format.substring(start, Math.min(i, start + 9))) : 0;
			}
			while (i < n && "hlL".indexOf(format.charAt(i)) >= 0) {
				i++;
			}
			if (i >= n) {
				throw new TemplateException("incomplete format");
			}
			char type = format.charAt(i);
			if (type == '%') {
				sb.append('%');
				continue;
			}
			if (!haveValue) {
				if (next >= items.size()) {
					throw new TemplateException("not enough arguments for format string");
				}
				value = items.get(next++);
			}
			spec.align = left ? '<' : (zero && "sr".indexOf(type) < 0) ? '=' : '>';
			spec.fill = (zero && !left && "sr".indexOf(type) < 0) ? '0' : ' ';
			sb.append(percentOne(value, type, spec));
			Values.checkSize(sb.length());
		}
		boolean mappingLike = mapping != null || (values instanceof List<?> && !(values instanceof PyTuple))
				|| values instanceof Undefined;
		if (next < items.size() && !mappingLike) {
			throw new TemplateException("not all arguments converted during string formatting");
		}
		return sb.toString();
	}

	private static String percentOne(Object value, char type, Spec spec) {
		if (value instanceof Undefined u && type != 's') {
			throw u.error();
		}
		switch (type) {
			case 's', 'r', 'a' -> {
				String s = (type == 's') ? Values.str(value) : Values.repr(value);
				if (spec.precision >= 0 && spec.precision < Strings.length(s)) {
					s = s.substring(0, s.offsetByCodePoints(0, spec.precision));
				}
				spec.sign = '-';
				return align(s, "", spec, '>');
			}
			case 'd', 'i', 'u', 'x', 'X', 'o', 'c' -> {
				if (!Values.isNumber(value)) {
					throw new TemplateException("%" + type + " format: a real number is required, not "
							+ Values.typeName(value));
				}
				if (Values.isFloat(value) && type != 'd' && type != 'i' && type != 'u') {
					throw new TemplateException("%" + type + " format: an integer is required, not float");
				}
				BigInteger integer = Values.isFloat(value) ? new BigDecimal(Values.toDouble(value)).toBigInteger()
						: Values.big(Values.integral(value));
				spec.type = (type == 'i' || type == 'u') ? 'd' : type;
				int precision = spec.precision;
				spec.precision = -1;
				String result = formatInt(integer, spec);
				if (precision > 0) {
					String digits = integer.abs().toString((type == 'x' || type == 'X') ? 16 : (type == 'o') ? 8 : 10);
					if (digits.length() < precision) {
						result = result.replace(digits, "0".repeat(precision - digits.length()) + digits);
					}
				}
				return result;
			}
			case 'e', 'E', 'f', 'F', 'g', 'G' -> {
				if (!Values.isNumber(value)) {
					throw new TemplateException("must be real number, not " + Values.typeName(value));
				}
				spec.type = type;
				return formatFloat(Values.toDouble(value), spec);
			}
			default -> throw new TemplateException("unsupported format character '" + type + "'");
		}
	}

}
