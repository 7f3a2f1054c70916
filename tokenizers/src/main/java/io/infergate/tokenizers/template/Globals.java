package io.infergate.tokenizers.template;

import java.math.BigInteger;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * The global functions of Hugging Face's template environment: jinja2's {@code range} (capped as the sandbox caps it),
 * {@code dict}, {@code namespace}, {@code joiner} and {@code cycler}, plus transformers' {@code raise_exception} and
 * {@code strftime_now}.
 */
final class Globals {

	static final int MAX_RANGE = 100_000;

	private static final String[] DAYS = { "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
			"Sunday" };

	private static final String[] MONTHS = { "January", "February", "March", "April", "May", "June", "July", "August",
			"September", "October", "November", "December" };

	private static final Args.Signature JOINER = new Args.Signature("joiner", "sep", ", ");

	private static final Args.Signature STRFTIME = new Args.Signature("strftime_now", "format", Args.REQUIRED);

	private static final Map<String, Object> GLOBALS = Map.of("range", (PyCallable) Globals::range, "dict",
			(PyCallable) (context, args) -> Values.dict(args, "dict"), "namespace", (PyCallable) Globals::namespace,
			"raise_exception", (PyCallable) Globals::raiseException, "strftime_now", (PyCallable) Globals::strftimeNow,
			"joiner", (PyCallable) Globals::joiner, "cycler", (PyCallable) (context, args) -> new Cycler(args));

	private Globals() {
	}

	static Object get(String name) {
		return GLOBALS.get(name);
	}

	private static Object range(Context context, Args args) {
		if (!args.keywords.isEmpty()) {
			throw new TemplateException("range() takes no keyword arguments");
		}
		List<Object> a = args.positional;
		if (a.isEmpty() || a.size() > 3) {
			throw new TemplateException("range expected 1 to 3 arguments, got " + a.size());
		}
		for (Object value : a) {
			if (value instanceof Undefined u) {
				throw u.error();
			}
			if (!Values.isInt(value) && !(value instanceof Boolean)) {
				throw new TemplateException(
						"'" + Values.typeName(value) + "' object cannot be interpreted as an integer");
			}
		}
		BigInteger start = (a.size() == 1) ? BigInteger.ZERO : Values.big(Values.integral(a.get(0)));
		BigInteger stop = Values.big(Values.integral(a.get((a.size() == 1) ? 0 : 1)));
		BigInteger step = (a.size() == 3) ? Values.big(Values.integral(a.get(2))) : BigInteger.ONE;
		if (step.signum() == 0) {
			throw new TemplateException("range() arg 3 must not be zero");
		}
		BigInteger span = (step.signum() > 0) ? stop.subtract(start) : start.subtract(stop);
		BigInteger count = span.signum() <= 0 ? BigInteger.ZERO
				: span.add(step.abs()).subtract(BigInteger.ONE).divide(step.abs());
		if (count.compareTo(BigInteger.valueOf(MAX_RANGE)) > 0) {
			throw new TemplateException(
					"Range too big. The sandbox blocks ranges larger than MAX_RANGE (" + MAX_RANGE + ").");
		}
		return new PyRange(start.longValue(), stop.longValue(), step.longValue(), count.intValue());
	}

	private static Object namespace(Context context, Args args) {
		Namespace ns = new Namespace();
		for (Map.Entry<Object, Object> entry : Values.dict(args, "namespace").entrySet()) {
			ns.attributes.put(Values.str(entry.getKey()), entry.getValue());
		}
		return ns;
	}

	private static Object raiseException(Context context, Args args) {
		Object message = args.positional.isEmpty() ? args.keywords.get("message") : args.positional.get(0);
		throw new TemplateException(Values.str(message));
	}

	private static Object joiner(Context context, Args args) {
		String separator = Values.str(JOINER.bind(args)[0]);
		boolean[] used = { false };
		return (PyCallable) (ctx, a) -> {
			if (!used[0]) {
				used[0] = true;
				return "";
			}
			return separator;
		};
	}

	private static Object strftimeNow(Context context, Args args) {
		Object format = STRFTIME.bind(args)[0];
		if (!(format instanceof String)) {
			throw new TemplateException("strftime() argument 1 must be str, not " + Values.typeName(format));
		}
		return strftime((String) format, LocalDateTime.now(context.clock).truncatedTo(ChronoUnit.MICROS));
	}

	/** Python's {@code datetime.strftime} (glibc codes, C locale, naive local time). */
	static String strftime(String format, LocalDateTime t) {
		StringBuilder sb = new StringBuilder();
		for (int i = 0; i < format.length(); i++) {
			char c = format.charAt(i);
			if (c != '%' || i + 1 >= format.length()) {
				sb.append(c);
				continue;
			}
			int start = i;
			char flag = 0;
			char code = format.charAt(++i);
			if ((code == '-' || code == '_' || code == '0') && i + 1 < format.length()) {
				flag = code;
				code = format.charAt(++i);
			}
			int hour12 = (t.getHour() % 12 == 0) ? 12 : t.getHour() % 12;
			String value = switch (code) {
				case 'a' -> DAYS[t.getDayOfWeek().ordinal()].substring(0, 3);
				case 'A' -> DAYS[t.getDayOfWeek().ordinal()];
				case 'b', 'h' -> MONTHS[t.getMonthValue() - 1].substring(0, 3);
				case 'B' -> MONTHS[t.getMonthValue() - 1];
				case 'd' -> number(t.getDayOfMonth(), 2, flag, '0');
				case 'e' -> number(t.getDayOfMonth(), 2, flag, ' ');
				case 'H' -> number(t.getHour(), 2, flag, '0');
				case 'I' -> number(hour12, 2, flag, '0');
				case 'j' -> number(t.getDayOfYear(), 3, flag, '0');
				case 'm' -> number(t.getMonthValue(), 2, flag, '0');
				case 'M' -> number(t.getMinute(), 2, flag, '0');
				case 'S' -> number(t.getSecond(), 2, flag, '0');
				case 'f' -> number(t.getNano() / 1000, 6, (char) 0, '0');
				case 'p' -> (t.getHour() < 12) ? "AM" : "PM";
				case 'y' -> number(t.getYear() % 100, 2, flag, '0');
				case 'Y' -> String.valueOf(t.getYear());
				case 'C' -> number(t.getYear() / 100, 2, flag, '0');
				case 'u' -> String.valueOf(t.getDayOfWeek().getValue());
				case 'w' -> String.valueOf(t.getDayOfWeek().getValue() % 7);
				case 'D', 'x' -> strftime("%m/%d/%y", t);
				case 'F' -> strftime("%Y-%m-%d", t);
				case 'T', 'X' -> strftime("%H:%M:%S", t);
				case 'R' -> strftime("%H:%M", t);
				case 'c' -> strftime("%a %b %e %H:%M:%S %Y", t);
				case 'n' -> "\n";
				case 't' -> "\t";
				case 'Z', 'z' -> "";
				case '%' -> "%";
				default -> format.substring(start, i + 1);
			};
			sb.append(value);
		}
		return sb.toString();
	}

	private static String number(int value, int width, char flag, char pad) {
		String digits = String.valueOf(value);
		if (flag == '-') {
			return digits;
		}
		char fill = (flag == '_') ? ' ' : (flag == '0') ? '0' : pad;
		return String.valueOf(fill).repeat(Math.max(0, width - digits.length())) + digits;
	}

	/** jinja2's {@code cycler}: cycles through values with {@code next()}. */
	static final class Cycler {

		private final List<Object> items;

		private int position;

		Cycler(Args args) {
			if (args.positional.isEmpty()) {
				throw new TemplateException("at least one item has to be provided");
			}
			this.items = new java.util.ArrayList<>(args.positional);
		}

		Object attribute(String name) {
			return switch (name) {
				case "current" -> this.items.get(this.position);
				case "next" -> (PyCallable) (context, args) -> {
					Object value = this.items.get(this.position);
					this.position = (this.position + 1) % this.items.size();
					return value;
				};
				case "reset" -> (PyCallable) (context, args) -> {
					this.position = 0;
					return null;
				};
				default -> Undefined.member(this, name);
			};
		}

	}

}
