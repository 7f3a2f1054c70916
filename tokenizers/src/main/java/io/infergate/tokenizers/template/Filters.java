package io.infergate.tokenizers.template;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Function;

/** jinja2's built-in filters and tests, with Hugging Face's {@code tojson}. */
final class Filters {

	/** A filter: {@code value | name(args)}. */
	interface Filter {

		Object apply(Context context, Object value, Args args);

	}

	/** A test: {@code value is name(args)}. */
	interface Test {

		boolean test(Context context, Object value, Args args);

	}

	/** jinja2 filters this interpreter knows of but does not implement; they fail when used. */
	private static final Set<String> UNSUPPORTED_FILTERS = Set.of("filesizeformat", "groupby", "pprint", "random",
			"striptags", "truncate", "urlencode", "urlize", "wordwrap", "xmlattr");

	private static final Map<String, Filter> FILTERS = new HashMap<>();

	private static final Map<String, Test> TESTS = new HashMap<>();

	private static final Object NONE_KEY = new Object();

	private Filters() {
	}

	static Filter filter(String name) {
		Filter filter = FILTERS.get(name);
		if (filter == null && UNSUPPORTED_FILTERS.contains(name)) {
			return (context, value, args) -> {
				throw new TemplateException("the filter '" + name + "' is not supported");
			};
		}
		return filter;
	}

	static Test test(String name) {
		return TESTS.get(name);
	}

	static Object callFilter(Context context, String name, Object value, Args args) {
		Filter filter = filter(name);
		if (filter == null) {
			throw new TemplateException("No filter named '" + name + "'.");
		}
		return filter.apply(context, value, args);
	}

	static boolean callTest(Context context, String name, Object value, Args args) {
		Test test = test(name);
		if (test == null) {
			throw new TemplateException("No test named '" + name + "'.");
		}
		return test.test(context, value, args);
	}

	private static void register(String name, Filter filter) {
		FILTERS.put(name, filter);
	}

	/** Registers a filter whose extra parameters are bound by a signature. */
	private static void register(String name, Args.Signature signature, BoundFilter filter) {
		FILTERS.put(name, (context, value, args) -> filter.apply(context, value, signature.bind(args)));
	}

	private interface BoundFilter {

		Object apply(Context context, Object value, Object[] a);

	}

	private static Args.Signature sig(String name, Object... namesAndDefaults) {
		return new Args.Signature(name, namesAndDefaults);
	}

	private static final Object REQUIRED = Args.REQUIRED;

	static {
		Args.Signature none = sig("filter");
		register("abs", none, (c, v, a) -> abs(v));
		register("attr", sig("attr", "name", REQUIRED), (c, v, a) -> {
			if (v instanceof Undefined u) {
				throw u.error();
			}
			return Values.attribute(v, Values.str(a[0]));
		});
		register("batch", sig("batch", "linecount", REQUIRED, "fill_with", null), Filters::batch);
		register("capitalize", none, (c, v, a) -> Strings.capitalize(Values.str(v)));
		register("center", sig("center", "width", 80L),
				(c, v, a) -> Strings.center(Values.str(v), Values.toInt(a[0], "width"), ' '));
		register("count", none, (c, v, a) -> (long) Values.len(v));
		register("length", none, (c, v, a) -> (long) Values.len(v));
		Args.Signature defaults = sig("default", "default_value", "", "boolean", false);
		BoundFilter defaultFilter = (c, v, a) -> (v instanceof Undefined || (Values.truthy(a[1]) && !Values.truthy(v)))
				? a[0] : v;
		register("default", defaults, defaultFilter);
		register("d", defaults, defaultFilter);
		register("dictsort", sig("dictsort", "case_sensitive", false, "by", "key", "reverse", false), Filters::dictsort);
		register("escape", none, (c, v, a) -> Strings.escapeHtml(Values.str(v)));
		register("e", none, (c, v, a) -> Strings.escapeHtml(Values.str(v)));
		register("forceescape", none, (c, v, a) -> Strings.escapeHtml(Values.str(v)));
		register("first", none, (c, v, a) -> {
			Iterator<Object> it = Values.iterator(v);
			return it.hasNext() ? it.next() : Undefined.hint("No first item, sequence was empty.");
		});
		register("last", none, (c, v, a) -> {
			Iterator<Object> it = reversed(v);
			return it.hasNext() ? it.next() : Undefined.hint("No last item, sequence was empty.");
		});
		register("float", sig("float", "default", 0.0), (c, v, a) -> toFloat(v, a[0]));
		register("int", sig("int", "default", 0L, "base", 10L), (c, v, a) -> toInt(v, a[0], a[1]));
		register("format", Filters::format);
		register("indent", sig("indent", "width", 4L, "first", false, "blank", false), Filters::indent);
		register("items", none, (c, v, a) -> {
			if (v instanceof Undefined) {
				return new PyIterator("generator", Collections.emptyIterator());
			}
			if (!(v instanceof Map<?, ?> map)) {
				return new PyIterator("generator", new LookaheadIterator() {

					@Override
					protected boolean advance() {
						throw new TemplateException("Can only get item pairs from a mapping.");
					}

				});
			}
			return new PyIterator("generator", Values.list(new DictView(map, DictView.Kind.ITEMS)).iterator());
		});
		register("join", sig("join", "d", "", "attribute", null), Filters::join);
		register("list", none, (c, v, a) -> new ArrayList<>(Values.list(v)));
		register("lower", none, (c, v, a) -> Strings.lower(Values.str(v)));
		register("upper", none, (c, v, a) -> Strings.upper(Values.str(v)));
		register("title", none, (c, v, a) -> Strings.titleFilter(Values.str(v)));
		register("map", Filters::map);
		register("min", sig("min", "case_sensitive", false, "attribute", null), (c, v, a) -> extreme(v, a, false));
		register("max", sig("max", "case_sensitive", false, "attribute", null), (c, v, a) -> extreme(v, a, true));
		register("select", (c, v, a) -> selectOrReject(c, v, a, false, false));
		register("reject", (c, v, a) -> selectOrReject(c, v, a, true, false));
		register("selectattr", (c, v, a) -> selectOrReject(c, v, a, false, true));
		register("rejectattr", (c, v, a) -> selectOrReject(c, v, a, true, true));
		register("replace", sig("replace", "old", REQUIRED, "new", REQUIRED, "count", null),
				(c, v, a) -> Methods.replace(Values.str(v), Values.str(a[0]), Values.str(a[1]),
						(a[2] == null) ? -1 : Values.index(a[2], "count")));
		register("reverse", none, (c, v, a) -> reverse(v));
		register("round", sig("round", "precision", 0L, "method", "common"), Filters::round);
		register("safe", none, (c, v, a) -> Values.str(v));
		register("slice", sig("slice", "slices", REQUIRED, "fill_with", null), Filters::slice);
		register("sort", sig("sort", "reverse", false, "case_sensitive", false, "attribute", null), Filters::sort);
		register("string", none, (c, v, a) -> Values.str(v));
		register("sum", sig("sum", "attribute", null, "start", 0L), Filters::sum);
		register("tojson", sig("tojson", "ensure_ascii", false, "indent", null, "separators", null, "sort_keys", false),
				(c, v, a) -> Json.dumps(v, Values.truthy(a[0]), a[1], a[2], Values.truthy(a[3])));
		register("trim", sig("trim", "chars", null), (c, v, a) -> {
			if (a[0] != null && !(a[0] instanceof String)) {
				throw new TemplateException("strip arg must be None or str");
			}
			return Strings.strip(Values.str(v), (String) a[0]);
		});
		register("unique", sig("unique", "case_sensitive", false, "attribute", null), Filters::unique);
		register("wordcount", none, (c, v, a) -> wordcount(Values.str(v)));

		registerTest("defined", (c, v, a) -> !(v instanceof Undefined));
		registerTest("undefined", (c, v, a) -> v instanceof Undefined);
		registerTest("none", (c, v, a) -> v == null);
		registerTest("boolean", (c, v, a) -> v instanceof Boolean);
		registerTest("false", (c, v, a) -> Boolean.FALSE.equals(v));
		registerTest("true", (c, v, a) -> Boolean.TRUE.equals(v));
		registerTest("integer", (c, v, a) -> Values.isInt(v));
		registerTest("float", (c, v, a) -> Values.isFloat(v));
		registerTest("number", (c, v, a) -> Values.isNumber(v));
		registerTest("string", (c, v, a) -> v instanceof String);
		registerTest("mapping", (c, v, a) -> v instanceof Map<?, ?>);
		registerTest("iterable", (c, v, a) -> Values.isIterable(v));
		registerTest("sequence", (c, v, a) -> v instanceof String || v instanceof List<?> || v instanceof Map<?, ?>
				|| v instanceof Undefined);
		registerTest("callable", (c, v, a) -> v instanceof PyCallable || v instanceof Undefined);
		registerTest("escaped", (c, v, a) -> false);
		registerTest("sameas", "sameas", (c, v, o) -> sameAs(v, o));
		registerTest("in", "in", (c, v, o) -> Values.contains(o, v));
		registerTest("odd", (c, v, a) -> Values.eq(Values.mod(v, 2L), 1L));
		registerTest("even", (c, v, a) -> Values.eq(Values.mod(v, 2L), 0L));
		registerTest("divisibleby", "divisibleby", (c, v, o) -> Values.eq(Values.mod(v, o), 0L));
		registerTest("lower", (c, v, a) -> Strings.isCaseOnly(Values.str(v), false));
		registerTest("upper", (c, v, a) -> Strings.isCaseOnly(Values.str(v), true));
		registerTest("filter", (c, v, a) -> v instanceof String s && filter(s) != null);
		registerTest("test", (c, v, a) -> v instanceof String s && TESTS.containsKey(s));
		for (String name : List.of("==", "eq", "equalto")) {
			registerTest(name, name, (c, v, o) -> Values.eq(v, o));
		}
		for (String name : List.of("!=", "ne")) {
			registerTest(name, name, (c, v, o) -> !Values.eq(v, o));
		}
		for (String name : List.of(">", "gt", "greaterthan")) {
			registerTest(name, name, (c, v, o) -> Values.compare(">", v, o));
		}
		for (String name : List.of(">=", "ge")) {
			registerTest(name, name, (c, v, o) -> Values.compare(">=", v, o));
		}
		for (String name : List.of("<", "lt", "lessthan")) {
			registerTest(name, name, (c, v, o) -> Values.compare("<", v, o));
		}
		for (String name : List.of("<=", "le")) {
			registerTest(name, name, (c, v, o) -> Values.compare("<=", v, o));
		}
	}

	private static void registerTest(String name, Test test) {
		Args.Signature none = sig(name);
		TESTS.put(name, (context, value, args) -> {
			none.bind(args);
			return test.test(context, value, args);
		});
	}

	private interface BinaryTest {

		boolean test(Context context, Object value, Object other);

	}

	private static void registerTest(String name, String function, BinaryTest test) {
		Args.Signature one = sig(function, "other", REQUIRED);
		TESTS.put(name, (context, value, args) -> test.test(context, value, one.bind(args)[0]));
	}

	private static boolean sameAs(Object a, Object b) {
		if (a == b) {
			return true;
		}
		if (a instanceof Boolean || b instanceof Boolean) {
			return a instanceof Boolean && a.equals(b);
		}
		if (Values.isInt(a) && Values.isInt(b)) {
			Integer c = Values.compareNumbers(a, b);
			Object value = Values.integral(a);
			return c == 0 && value instanceof Long l && l >= -5 && l <= 256;
		}
		return false;
	}

	private static Object abs(Object v) {
		if (v instanceof Undefined u) {
			throw u.error();
		}
		if (Values.isFloat(v)) {
			return Math.abs(Values.toDouble(v));
		}
		if (Values.isNumber(v)) {
			Object i = Values.integral(v);
			return (i instanceof Long l && l != Long.MIN_VALUE) ? (Object) Math.abs(l)
					: Values.normalize(Values.big(i).abs());
		}
		throw new TemplateException("bad operand type for abs(): '" + Values.typeName(v) + "'");
	}

	private static Object batch(Context context, Object value, Object[] a) {
		long size = Values.index(a[0], "linecount");
		Iterator<Object> source = Values.iterator(value);
		Object fill = a[1];
		return new PyIterator("generator", new LookaheadIterator() {

			private List<Object> row = new ArrayList<>();

			private boolean done;

			@Override
			protected boolean advance() {
				while (source.hasNext()) {
					Object item = source.next();
					List<Object> full = (this.row.size() == size) ? this.row : null;
					if (full != null) {
						this.row = new ArrayList<>();
					}
					this.row.add(item);
					if (full != null) {
						this.next = full;
						return true;
					}
				}
				if (this.done || this.row.isEmpty()) {
					return false;
				}
				this.done = true;
				while (fill != null && this.row.size() < size) {
					this.row.add(fill);
				}
				this.next = this.row;
				return true;
			}

		});
	}

	private static Object slice(Context context, Object value, Object[] a) {
		List<Object> items = Values.list(value);
		int slices = Values.toInt(a[0], "slices");
		if (slices <= 0) {
			throw new TemplateException("slices must be positive");
		}
		Values.checkItems(slices);
		int perSlice = items.size() / slices;
		int withExtra = items.size() % slices;
		List<Object> result = new ArrayList<>();
		int offset = 0;
		for (int i = 0; i < slices; i++) {
			int start = offset + i * perSlice;
			if (i < withExtra) {
				offset++;
			}
			int end = offset + (i + 1) * perSlice;
			List<Object> part = new ArrayList<>(items.subList(start, end));
			if (a[1] != null && i >= withExtra) {
				part.add(a[1]);
			}
			result.add(part);
		}
		return new PyIterator("generator", result.iterator());
	}

	private static Object toFloat(Object v, Object dflt) {
		if (v instanceof Undefined u) {
			throw u.error();
		}
		if (Values.isNumber(v)) {
			return Values.toDouble(v);
		}
		if (v instanceof String s) {
			Double d = parseFloat(s);
			return (d != null) ? d : dflt;
		}
		return dflt;
	}

	/** Python's {@code float(str)}, or null if it is not a number. */
	static Double parseFloat(String s) {
		String t = Strings.strip(s, null).replace("_", "");
		if (t.isEmpty() || s.contains("__") || t.startsWith("_") || t.endsWith("_")) {
			return null;
		}
		String lower = Strings.lower(t);
		String unsigned = (lower.startsWith("+") || lower.startsWith("-")) ? lower.substring(1) : lower;
		double sign = lower.startsWith("-") ? -1 : 1;
		if (unsigned.equals("inf") || unsigned.equals("infinity")) {
			return sign * Double.POSITIVE_INFINITY;
		}
		if (unsigned.equals("nan")) {
			return Double.NaN;
		}
		for (int i = 0; i < unsigned.length(); i++) {
			char c = unsigned.charAt(i);
			if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == '+' || c == '-')) {
				return null;
			}
		}
		try {
			return Double.parseDouble(t);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private static Object toInt(Object v, Object dflt, Object baseArg) {
		if (v instanceof Undefined u) {
			throw u.error();
		}
		if (Values.isFloat(v)) {
			double d = Values.toDouble(v);
			if (Double.isNaN(d) || Double.isInfinite(d)) {
				return dflt;
			}
			return Values.normalize(new BigDecimal(d).toBigInteger());
		}
		if (Values.isNumber(v)) {
			return Values.integral(v);
		}
		if (v instanceof String s) {
			Object parsed = parseInt(s, Values.toInt(baseArg, "base"));
			if (parsed != null) {
				return parsed;
			}
			Double d = parseFloat(s);
			if (d != null && !d.isNaN() && !d.isInfinite()) {
				return Values.normalize(new BigDecimal(d).toBigInteger());
			}
		}
		return dflt;
	}

	/** Python's {@code int(str, base)}, or null if invalid. */
	private static Object parseInt(String s, int base) {
		String t = Strings.strip(s, null);
		boolean negative = t.startsWith("-");
		if (negative || t.startsWith("+")) {
			t = t.substring(1);
		}
		String lower = Strings.lower(t);
		if (base == 0 || base == 16 || base == 8 || base == 2) {
			String prefix = (lower.length() > 1 && lower.charAt(0) == '0') ? lower.substring(0, 2) : "";
			int prefixBase = switch (prefix) {
				case "0x" -> 16;
				case "0o" -> 8;
				case "0b" -> 2;
				default -> 0;
			};
			if (prefixBase != 0 && (base == 0 || base == prefixBase)) {
				base = prefixBase;
				t = t.substring(2);
				if (t.startsWith("_")) {
					t = t.substring(1);
				}
			}
			else if (base == 0) {
				base = 10;
				if (lower.length() > 1 && lower.charAt(0) == '0' && lower.chars().anyMatch((ch) -> ch > '0' && ch <= '9')) {
					return null;
				}
			}
		}
		if (base < 2 || base > 36 || t.isEmpty() || t.startsWith("_") || t.endsWith("_") || t.contains("__")) {
			return null;
		}
		try {
			java.math.BigInteger value = new java.math.BigInteger(t.replace("_", ""), base);
			return Values.normalize(negative ? value.negate() : value);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private static Object format(Context context, Object value, Args args) {
		if (!args.positional.isEmpty() && !args.keywords.isEmpty()) {
			throw new TemplateException("can't handle positional and keyword arguments at the same time");
		}
		Object values = args.keywords.isEmpty() ? PyTuple.of(args.positional) : args.keywords;
		return Format.percent(Values.str(value), values);
	}

	private static Object indent(Context context, Object value, Object[] a) {
		if (value instanceof Undefined u) {
			throw u.error();
		}
		if (!(value instanceof String s)) {
			throw new TemplateException(
					"unsupported operand type(s) for +=: '" + Values.typeName(value) + "' and 'str'");
		}
		String indention = (a[0] instanceof String w) ? w : null;
		if (indention == null) {
			int width = Math.max(0, Values.toInt(a[0], "width"));
			Values.checkSize(width);
			indention = " ".repeat(width);
		}
		List<Object> lines = Strings.splitlines(s + "\n", false);
		StringBuilder sb = new StringBuilder(s.length() + 16);
		boolean blank = Values.truthy(a[2]);
		for (int i = 0; i < lines.size(); i++) {
			String line = (String) lines.get(i);
			if (i > 0) {
				sb.append('\n');
				if (blank || !line.isEmpty()) {
					sb.append(indention);
				}
			}
			sb.append(line);
			Values.checkSize(sb.length());
		}
		return Values.truthy(a[1]) ? indention + sb : sb.toString();
	}

	private static Object join(Context context, Object value, Object[] a) {
		String separator = Values.str(a[0]);
		Function<Object, Object> getter = attributeGetter(a[1], null, false);
		StringBuilder sb = new StringBuilder();
		boolean first = true;
		for (Iterator<Object> it = Values.iterator(value); it.hasNext();) {
			Object item = it.next();
			if (!first) {
				sb.append(separator);
			}
			first = false;
			sb.append(Values.str((getter != null) ? getter.apply(item) : item));
			Values.checkSize(sb.length());
		}
		return sb.toString();
	}

	/** jinja2's {@code make_attrgetter}: dotted attribute paths, digits as indexes; null for no attribute. */
	private static Function<Object, Object> attributeGetter(Object attribute, Object dflt, boolean ignoreCase) {
		if (attribute == null) {
			return ignoreCase ? Filters::ignoreCase : null;
		}
		List<Object> parts = attributeParts(attribute);
		return (item) -> {
			for (Object part : parts) {
				item = Values.getitem(item, part);
				if (dflt != null && item instanceof Undefined) {
					item = dflt;
				}
			}
			return ignoreCase ? ignoreCase(item) : item;
		};
	}

	private static List<Object> attributeParts(Object attribute) {
		List<Object> parts = new ArrayList<>();
		if (attribute instanceof String s) {
			for (Object part : Strings.split(s, ".", -1)) {
				String p = (String) part;
				boolean digits = !p.isEmpty() && Strings.all(p, Strings::isDigit);
				parts.add(digits ? (Object) Long.parseLong(p) : p);
			}
		}
		else {
			parts.add(attribute);
		}
		return parts;
	}

	private static Object ignoreCase(Object value) {
		return (value instanceof String s) ? Strings.lower(s) : value;
	}

	/** jinja2's {@code make_multi_attrgetter}: comma-separated attributes give a tuple of keys. */
	private static Function<Object, Object> multiAttributeGetter(Object attribute, boolean ignoreCase) {
		List<Function<Object, Object>> getters = new ArrayList<>();
		if (attribute instanceof String s) {
			for (Object part : Strings.split(s, ",", -1)) {
				getters.add(attributeGetter(part, null, ignoreCase));
			}
		}
		else {
			getters.add(attributeGetter(attribute, null, ignoreCase));
		}
		return (item) -> {
			Object[] keys = new Object[getters.size()];
			for (int i = 0; i < keys.length; i++) {
				keys[i] = getters.get(i).apply(item);
			}
			return new PyTuple(keys);
		};
	}

	private static Comparator<Object> pythonOrder() {
		return (x, y) -> Values.compare("<", x, y) ? -1 : (Values.compare("<", y, x) ? 1 : 0);
	}

	private static Object sort(Context context, Object value, Object[] a) {
		List<Object> items = new ArrayList<>(Values.list(value));
		boolean ignoreCase = !Values.truthy(a[1]);
		Function<Object, Object> key = (a[2] == null) ? (ignoreCase ? Filters::ignoreCase : (item) -> item)
				: multiAttributeGetter(a[2], ignoreCase);
		List<Object[]> keyed = new ArrayList<>(items.size());
		for (Object item : items) {
			keyed.add(new Object[] { key.apply(item), item });
		}
		Comparator<Object> order = pythonOrder();
		Comparator<Object[]> comparator = (x, y) -> order.compare(x[0], y[0]);
		keyed.sort(Values.truthy(a[0]) ? (x, y) -> comparator.compare(y, x) : comparator);
		List<Object> result = new ArrayList<>(keyed.size());
		for (Object[] pair : keyed) {
			result.add(pair[1]);
		}
		return result;
	}

	private static Object dictsort(Context context, Object value, Object[] a) {
		if (!(value instanceof Map<?, ?> map)) {
			throw new TemplateException("'" + Values.typeName(value) + "' object has no attribute 'items'");
		}
		String by = Values.str(a[1]);
		if (!by.equals("key") && !by.equals("value")) {
			throw new TemplateException("You can only sort by either \"key\" or \"value\"");
		}
		int position = by.equals("key") ? 0 : 1;
		boolean ignoreCase = !Values.truthy(a[0]);
		List<Object> items = Values.list(new DictView(map, DictView.Kind.ITEMS));
		Comparator<Object> order = pythonOrder();
		Comparator<Object> comparator = (x, y) -> {
			Object kx = ((List<?>) x).get(position);
			Object ky = ((List<?>) y).get(position);
			return order.compare(ignoreCase ? ignoreCase(kx) : kx, ignoreCase ? ignoreCase(ky) : ky);
		};
		items.sort(Values.truthy(a[2]) ? (x, y) -> comparator.compare(y, x) : comparator);
		return items;
	}

	private static Object extreme(Object value, Object[] a, boolean max) {
		Iterator<Object> it = Values.iterator(value);
		if (!it.hasNext()) {
			return Undefined.hint("No aggregated item, sequence was empty.");
		}
		Function<Object, Object> key = attributeGetter(a[1], null, !Values.truthy(a[0]));
		Object best = it.next();
		Object bestKey = (key != null) ? key.apply(best) : best;
		while (it.hasNext()) {
			Object item = it.next();
			Object k = (key != null) ? key.apply(item) : item;
			if (max ? Values.compare(">", k, bestKey) : Values.compare("<", k, bestKey)) {
				best = item;
				bestKey = k;
			}
		}
		return best;
	}

	private static Object sum(Context context, Object value, Object[] a) {
		Object total = a[1];
		if (total instanceof String) {
			throw new TemplateException("sum() can't sum strings [use ''.join(seq) instead]");
		}
		Function<Object, Object> getter = attributeGetter(a[0], null, false);
		for (Iterator<Object> it = Values.iterator(value); it.hasNext();) {
			Object item = it.next();
			total = Values.add(total, (getter != null) ? getter.apply(item) : item);
		}
		return total;
	}

	private static Object unique(Context context, Object value, Object[] a) {
		Function<Object, Object> key = attributeGetter(a[1], null, !Values.truthy(a[0]));
		Iterator<Object> source = Values.iterator(value);
		Set<Object> seen = new HashSet<>();
		return new PyIterator("generator", new LookaheadIterator() {

			@Override
			protected boolean advance() {
				while (source.hasNext()) {
					Object item = source.next();
					if (seen.add(hashKey((key != null) ? key.apply(item) : item))) {
						this.next = item;
						return true;
					}
				}
				return false;
			}

		});
	}

	/** A value that is equal and hashes alike exactly when the Python values are equal. */
	private static Object hashKey(Object value) {
		if (value == null) {
			return NONE_KEY;
		}
		if (value instanceof String) {
			return value;
		}
		if (Values.isNumber(value)) {
			if (Values.isFloat(value)) {
				double d = Values.toDouble(value);
				if (d == Math.rint(d) && !Double.isInfinite(d)) {
					return Values.normalize(new BigDecimal(d).toBigInteger());
				}
				return d;
			}
			return Values.integral(value);
		}
		if (value instanceof PyTuple tuple) {
			List<Object> keys = new ArrayList<>(tuple.size());
			for (Object item : tuple) {
				keys.add(hashKey(item));
			}
			return keys;
		}
		Values.key(value);
		return value;
	}

	private static Object reverse(Object value) {
		if (value instanceof String s) {
			return new StringBuilder(s).reverse().toString();
		}
		if (value instanceof List<?> || value instanceof Map<?, ?> || value instanceof DictView
				|| value instanceof Undefined) {
			List<Object> items = new ArrayList<>(Values.list(value));
			Collections.reverse(items);
			String type = (value instanceof PyRange) ? "range_iterator"
					: (value instanceof List<?>) ? "list_reverseiterator"
							: (value instanceof Undefined) ? "reversed" : "dict_reversekeyiterator";
			return new PyIterator(type, items.iterator());
		}
		if (value instanceof PyIterator) {
			List<Object> items = new ArrayList<>(Values.list(value));
			Collections.reverse(items);
			return items;
		}
		throw new TemplateException("argument must be iterable");
	}

	private static Iterator<Object> reversed(Object value) {
		if (value instanceof String || value instanceof List<?> || value instanceof Map<?, ?>
				|| value instanceof DictView || value instanceof Undefined) {
			List<Object> items = Values.list(value);
			return new Iterator<>() {

				private int index = items.size() - 1;

				@Override
				public boolean hasNext() {
					return this.index >= 0;
				}

				@Override
				public Object next() {
					return items.get(this.index--);
				}

			};
		}
		throw new TemplateException("'" + Values.typeName(value) + "' object is not reversible");
	}

	private static Object round(Context context, Object value, Object[] a) {
		String method = Values.str(a[1]);
		if (!method.equals("common") && !method.equals("ceil") && !method.equals("floor")) {
			throw new TemplateException("method must be common, ceil or floor");
		}
		if (value instanceof Undefined u) {
			throw u.error();
		}
		if (!Values.isNumber(value)) {
			throw new TemplateException("type " + Values.typeName(value) + " doesn't define __round__ method");
		}
		int precision = Values.toInt(a[0], "precision");
		if (method.equals("common")) {
			if (!Values.isFloat(value)) {
				Object i = Values.integral(value);
				if (precision >= 0) {
					return i;
				}
				BigDecimal rounded = new BigDecimal(Values.big(i)).setScale(precision, RoundingMode.HALF_EVEN);
				return Values.normalize(rounded.setScale(0).toBigIntegerExact());
			}
			double d = Values.toDouble(value);
			if (Double.isNaN(d) || Double.isInfinite(d)) {
				return d;
			}
			double rounded = new BigDecimal(d).setScale(precision, RoundingMode.HALF_EVEN).doubleValue();
			return (rounded == 0) ? Math.copySign(0.0, d) : rounded;
		}
		double scale = Math.pow(10, precision);
		double scaled = Values.toDouble(value) * scale;
		return (method.equals("ceil") ? Math.ceil(scaled) : Math.floor(scaled)) / scale;
	}

	private static Object map(Context context, Object value, Args args) {
		if (!Values.truthy(value)) {
			return new PyIterator("generator", Collections.emptyIterator());
		}
		Function<Object, Object> function;
		if (args.positional.isEmpty() && args.keywords.containsKey("attribute")) {
			for (String keyword : args.keywords.keySet()) {
				if (!keyword.equals("attribute") && !keyword.equals("default")) {
					throw new TemplateException("Unexpected keyword argument '" + keyword + "'");
				}
			}
			function = attributeGetter(args.keywords.get("attribute"), args.keywords.get("default"), false);
		}
		else {
			if (args.positional.isEmpty()) {
				throw new TemplateException("map requires a filter argument");
			}
			String name = Values.str(args.positional.get(0));
			Args rest = args.drop(1);
			function = (item) -> callFilter(context, name, item, rest);
		}
		Iterator<Object> source = Values.iterator(value);
		return new PyIterator("generator", new Iterator<>() {

			@Override
			public boolean hasNext() {
				return source.hasNext();
			}

			@Override
			public Object next() {
				return function.apply(source.next());
			}

		});
	}

	private static Object selectOrReject(Context context, Object value, Args args, boolean reject,
			boolean attribute) {
		if (!Values.truthy(value)) {
			return new PyIterator("generator", Collections.emptyIterator());
		}
		Function<Object, Object> transform = (item) -> item;
		int offset = 0;
		if (attribute) {
			if (args.positional.isEmpty()) {
				throw new TemplateException("Missing parameter for attribute name");
			}
			transform = attributeGetter(args.positional.get(0), null, false);
			offset = 1;
		}
		Function<Object, Object> getter = transform;
		String testName = (args.positional.size() > offset) ? Values.str(args.positional.get(offset)) : null;
		Args testArgs = args.drop(offset + 1);
		Iterator<Object> source = Values.iterator(value);
		return new PyIterator("generator", new LookaheadIterator() {

			@Override
			protected boolean advance() {
				while (source.hasNext()) {
					Object item = source.next();
					Object subject = getter.apply(item);
					boolean passed = (testName != null) ? callTest(context, testName, subject, testArgs)
							: Values.truthy(subject);
					if (passed != reject) {
						this.next = item;
						return true;
					}
				}
				return false;
			}

		});
	}

	private static long wordcount(String s) {
		long count = 0;
		boolean inWord = false;
		for (int i = 0; i < s.length();) {
			int cp = s.codePointAt(i);
			i += Character.charCount(cp);
			boolean word = cp == '_' || Strings.isAlnum(cp);
			if (word && !inWord) {
				count++;
			}
			inWord = word;
		}
		return count;
	}

	/** An iterator that finds its next item on demand. */
	private abstract static class LookaheadIterator implements Iterator<Object> {

		protected Object next;

		private int state;

		protected abstract boolean advance();

		@Override
		public boolean hasNext() {
			if (this.state == 0) {
				this.state = advance() ? 1 : 2;
			}
			return this.state == 1;
		}

		@Override
		public Object next() {
			if (!hasNext()) {
				throw new NoSuchElementException();
			}
			this.state = 0;
			return this.next;
		}

	}

}
