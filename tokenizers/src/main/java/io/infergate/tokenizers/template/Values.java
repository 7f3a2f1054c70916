package io.infergate.tokenizers.template;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Python's semantics over plain Java values: {@code String}, integers ({@code Long}, {@code BigInteger} and the other
 * integral {@code Number}s), floats ({@code Double}, {@code Float}, {@code BigDecimal}), {@code Boolean}, {@code null}
 * (None), {@code List} (list), {@link PyTuple}, {@code Map} (dict) and the template's own objects.
 */
final class Values {

	/** The longest string a template may build. */
	static final long MAX_SIZE = Context.MAX_OUTPUT;

	/** The longest list a template may build. */
	static final long MAX_ITEMS = 4L * 1024 * 1024;

	/** The deepest nesting printed, compared or serialized. */
	static final int MAX_NESTING = 400;

	private static final Set<String> DICT_METHODS = Set.of("items", "keys", "values", "get", "copy");

	private static final Set<String> DICT_MUTATORS = Set.of("clear", "pop", "popitem", "setdefault", "update",
			"fromkeys");

	private static final Set<String> LIST_METHODS = Set.of("index", "count", "copy");

	private static final Set<String> LIST_MUTATORS = Set.of("append", "clear", "pop", "reverse", "insert", "sort",
			"extend", "remove");

	private Values() {
	}

	static TemplateException typeError(String message) {
		return new TemplateException(message);
	}

	static void checkSize(long size) {
		if (size > MAX_SIZE) {
			throw new TemplateException("the template built a string longer than " + MAX_SIZE + " characters");
		}
	}

	static void checkItems(long size) {
		if (size > MAX_ITEMS) {
			throw new TemplateException("the template built a list longer than " + MAX_ITEMS + " items");
		}
	}

	static void checkNesting(int depth) {
		if (depth > MAX_NESTING) {
			throw new TemplateException("values nested deeper than " + MAX_NESTING + " levels");
		}
	}

	// numbers

	static boolean isInt(Object o) {
		return o instanceof Long || o instanceof Integer || o instanceof BigInteger || o instanceof Short
				|| o instanceof Byte;
	}

	static boolean isFloat(Object o) {
		return o instanceof Double || o instanceof Float || o instanceof BigDecimal;
	}

	/** An int, float or bool (a Python {@code numbers.Number}). */
	static boolean isNumber(Object o) {
		return isInt(o) || isFloat(o) || o instanceof Boolean;
	}

	static Object normalize(BigInteger value) {
		return (value.bitLength() < 64) ? (Object) value.longValue() : value;
	}

	/** An int or bool as a {@code Long} or {@code BigInteger}. */
	static Object integral(Object o) {
		if (o instanceof Long) {
			return o;
		}
		if (o instanceof BigInteger b) {
			return normalize(b);
		}
		if (o instanceof Boolean b) {
			return b ? 1L : 0L;
		}
		return ((Number) o).longValue();
	}

	static BigInteger big(Object integral) {
		return (integral instanceof BigInteger b) ? b : BigInteger.valueOf((Long) integral);
	}

	static double toDouble(Object o) {
		if (o instanceof Boolean b) {
			return b ? 1 : 0;
		}
		return ((Number) o).doubleValue();
	}

	/** A Python int index (an int or bool), or throws. */
	static long index(Object o, String what) {
		if (isInt(o) || o instanceof Boolean) {
			Object value = integral(o);
			if (value instanceof Long l) {
				return l;
			}
			return (((BigInteger) value).signum() < 0) ? Long.MIN_VALUE : Long.MAX_VALUE;
		}
		throw typeError(what + " must be an integer, not '" + typeName(o) + "'");
	}

	static int toInt(Object o, String what) {
		long value = index(o, what);
		return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
	}

	/** Compares two numbers exactly; returns null if either is NaN. */
	static Integer compareNumbers(Object a, Object b) {
		if (isFloat(a) || isFloat(b)) {
			double x = toDouble(a);
			double y = toDouble(b);
			if (Double.isNaN(x) || Double.isNaN(y)) {
				return null;
			}
			if (Double.isInfinite(x) || Double.isInfinite(y) || (isFloat(a) && isFloat(b))) {
				return Double.compare(x, y) == 0 ? 0 : (x < y ? -1 : (x > y ? 1 : 0));
			}
			BigDecimal bx = isFloat(a) ? new BigDecimal(x) : new BigDecimal(big(integral(a)));
			BigDecimal by = isFloat(b) ? new BigDecimal(y) : new BigDecimal(big(integral(b)));
			return bx.compareTo(by);
		}
		Object x = integral(a);
		Object y = integral(b);
		if (x instanceof Long l && y instanceof Long m) {
			return Long.compare(l, m);
		}
		return big(x).compareTo(big(y));
	}

	// truthiness and conversion to text

	static boolean truthy(Object v) {
		if (v == null) {
			return false;
		}
		if (v instanceof Boolean b) {
			return b;
		}
		if (v instanceof String s) {
			return !s.isEmpty();
		}
		if (v instanceof Collection<?> c) {
			return !c.isEmpty();
		}
		if (v instanceof Map<?, ?> m) {
			return !m.isEmpty();
		}
		if (v instanceof Undefined) {
			return false;
		}
		if (isNumber(v)) {
			if (isFloat(v)) {
				return toDouble(v) != 0;
			}
			Object i = integral(v);
			return (i instanceof Long l) ? l != 0 : ((BigInteger) i).signum() != 0;
		}
		if (v instanceof DictView view) {
			return !view.map().isEmpty();
		}
		return true;
	}

	/** Python's {@code str(v)}. */
	static String str(Object v) {
		if (v instanceof String s) {
			return s;
		}
		if (v == null) {
			return "None";
		}
		if (v instanceof Boolean b) {
			return b ? "True" : "False";
		}
		if (isInt(v)) {
			return v.toString();
		}
		if (isFloat(v)) {
			return Strings.floatRepr(toDouble(v));
		}
		if (v instanceof Undefined) {
			return "";
		}
		return repr(v);
	}

	/** Python's {@code repr(v)}. */
	static String repr(Object v) {
		StringBuilder sb = new StringBuilder();
		repr(v, sb, 0);
		return sb.toString();
	}

	private static void repr(Object v, StringBuilder sb, int depth) {
		checkNesting(depth);
		if (v instanceof String s) {
			sb.append(Strings.repr(s));
		}
		else if (v instanceof PyTuple t) {
			sb.append('(');
			reprItems(t, sb, depth);
			sb.append((t.size() == 1) ? ",)" : ")");
		}
		else if (v instanceof PyRange r) {
			sb.append(r.repr());
		}
		else if (v instanceof List<?> l) {
			sb.append('[');
			reprItems(l, sb, depth);
			sb.append(']');
		}
		else if (v instanceof Map<?, ?> m) {
			reprMap(m, sb, depth);
		}
		else if (v instanceof DictView view) {
			sb.append(view.typeName()).append('(');
			repr(list(view), sb, depth + 1);
			sb.append(')');
		}
		else if (v instanceof Namespace ns) {
			sb.append("<Namespace ");
			reprMap(ns.attributes, sb, depth);
			sb.append('>');
		}
		else if (v instanceof Undefined) {
			sb.append("Undefined");
		}
		else if (v instanceof PyIterator it) {
			sb.append('<').append(it.typeName).append(" object>");
		}
		else if (v instanceof Macro m) {
			sb.append("<Macro '").append(m.name).append("'>");
		}
		else if (v instanceof LoopContext loop) {
			sb.append("<LoopContext ").append(loop.index0 + 1).append('/').append(loop.length).append('>');
		}
		else if (v instanceof BoundMethod method) {
			sb.append("<built-in method ").append(method.name()).append(" of ").append(typeName(method.self()))
				.append(" object>");
		}
		else if (v instanceof PyCallable) {
			sb.append("<function>");
		}
		else if (isNumber(v) || v == null) {
			sb.append(str(v));
		}
		else {
			sb.append(v);
		}
	}

	private static void reprItems(List<?> items, StringBuilder sb, int depth) {
		for (int i = 0; i < items.size(); i++) {
			if (i > 0) {
				sb.append(", ");
			}
			repr(items.get(i), sb, depth + 1);
		}
	}

	private static void reprMap(Map<?, ?> map, StringBuilder sb, int depth) {
		sb.append('{');
		boolean first = true;
		for (Map.Entry<?, ?> entry : map.entrySet()) {
			if (!first) {
				sb.append(", ");
			}
			first = false;
			repr(entry.getKey(), sb, depth + 1);
			sb.append(": ");
			repr(entry.getValue(), sb, depth + 1);
		}
		sb.append('}');
	}

	/** The Python type name, as in error messages. */
	static String typeName(Object v) {
		if (v == null) {
			return "NoneType";
		}
		if (v instanceof String) {
			return "str";
		}
		if (v instanceof Boolean) {
			return "bool";
		}
		if (isInt(v)) {
			return "int";
		}
		if (isFloat(v)) {
			return "float";
		}
		if (v instanceof PyTuple) {
			return "tuple";
		}
		if (v instanceof PyRange) {
			return "range";
		}
		if (v instanceof List<?>) {
			return "list";
		}
		if (v instanceof Map<?, ?>) {
			return "dict";
		}
		if (v instanceof DictView view) {
			return view.typeName();
		}
		if (v instanceof PyIterator it) {
			return it.typeName;
		}
		if (v instanceof Undefined) {
			return "Undefined";
		}
		if (v instanceof Namespace) {
			return "Namespace";
		}
		if (v instanceof Macro) {
			return "Macro";
		}
		if (v instanceof LoopContext) {
			return "LoopContext";
		}
		if (v instanceof PyCallable) {
			return "builtin_function_or_method";
		}
		return v.getClass().getSimpleName();
	}

	/** jinja2's {@code object_type_repr}, used in undefined messages. */
	static String typeRepr(Object v) {
		if (v == null) {
			return "None";
		}
		if (v instanceof Namespace) {
			return "jinja2.utils.Namespace object";
		}
		if (v instanceof LoopContext) {
			return "jinja2.runtime.LoopContext object";
		}
		if (v instanceof Macro) {
			return "jinja2.runtime.Macro object";
		}
		return typeName(v) + " object";
	}

	// equality and ordering

	static boolean eq(Object a, Object b) {
		return eq(a, b, 0);
	}

	private static boolean eq(Object a, Object b, int depth) {
		checkNesting(depth);
		if (a == b) {
			return !(a instanceof Double d && d.isNaN());
		}
		if (a == null || b == null) {
			return false;
		}
		if (a instanceof String s) {
			return s.equals(b);
		}
		if (isNumber(a)) {
			if (!isNumber(b)) {
				return false;
			}
			Integer c = compareNumbers(a, b);
			return c != null && c == 0;
		}
		if (a instanceof Undefined) {
			return b instanceof Undefined;
		}
		if (a instanceof List<?> x && b instanceof List<?> y) {
			if (sequenceKind(x) != sequenceKind(y) || x.size() != y.size()) {
				return false;
			}
			for (int i = 0; i < x.size(); i++) {
				if (!eq(x.get(i), y.get(i), depth + 1)) {
					return false;
				}
			}
			return true;
		}
		if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
			if (x.size() != y.size()) {
				return false;
			}
			for (Map.Entry<?, ?> entry : x.entrySet()) {
				Object other = mapGet(y, entry.getKey());
				if (other == Scope.MISSING || !eq(entry.getValue(), other, depth + 1)) {
					return false;
				}
			}
			return true;
		}
		return a.equals(b);
	}

	private static int sequenceKind(List<?> list) {
		return (list instanceof PyTuple) ? 1 : (list instanceof PyRange) ? 2 : 0;
	}

	static boolean isList(Object o) {
		return o instanceof List<?> && !(o instanceof PyTuple) && !(o instanceof PyRange);
	}

	/** Python's ordering comparisons ({@code < <= > >=}). */
	static boolean compare(String op, Object a, Object b) {
		if (a instanceof Undefined u) {
			throw u.error();
		}
		if (b instanceof Undefined u) {
			throw u.error();
		}
		Integer c = order(op, a, b, 0);
		if (c == null) {
			return false;
		}
		return switch (op) {
			case "<" -> c < 0;
			case "<=" -> c <= 0;
			case ">" -> c > 0;
			default -> c >= 0;
		};
	}

	private static Integer order(String op, Object a, Object b, int depth) {
		checkNesting(depth);
		if (isNumber(a) && isNumber(b)) {
			return compareNumbers(a, b);
		}
		if (a instanceof String x && b instanceof String y) {
			return compareCodePoints(x, y);
		}
		if (a instanceof List<?> x && b instanceof List<?> y && sequenceKind(x) == sequenceKind(y)
				&& !(x instanceof PyRange)) {
			int n = Math.min(x.size(), y.size());
			for (int i = 0; i < n; i++) {
				if (!eq(x.get(i), y.get(i), depth + 1)) {
					if (x.get(i) instanceof Undefined u) {
						throw u.error();
					}
					if (y.get(i) instanceof Undefined u) {
						throw u.error();
					}
					return order(op, x.get(i), y.get(i), depth + 1);
				}
			}
			return Integer.compare(x.size(), y.size());
		}
		throw typeError("'" + op + "' not supported between instances of '" + typeName(a) + "' and '" + typeName(b)
				+ "'");
	}

	static int compareCodePoints(String x, String y) {
		int n = Math.min(x.length(), y.length());
		for (int i = 0; i < n; i++) {
			char c = x.charAt(i);
			char d = y.charAt(i);
			if (c != d) {
				if (Character.isSurrogate(c) || Character.isSurrogate(d)) {
					return Integer.compare(x.codePointAt(i), y.codePointAt(i));
				}
				return Character.compare(c, d);
			}
		}
		return Integer.compare(x.length(), y.length());
	}

	// arithmetic

	private static void checkUndefined(Object a, Object b) {
		if (a instanceof Undefined u) {
			throw u.error();
		}
		if (b instanceof Undefined u) {
			throw u.error();
		}
	}

	private static TemplateException unsupported(String op, Object a, Object b) {
		return typeError("unsupported operand type(s) for " + op + ": '" + typeName(a) + "' and '" + typeName(b) + "'");
	}

	static Object add(Object a, Object b) {
		if (a instanceof String x && b instanceof String y) {
			checkSize((long) x.length() + y.length());
			return x.concat(y);
		}
		checkUndefined(a, b);
		if (isNumber(a) && isNumber(b)) {
			if (isFloat(a) || isFloat(b)) {
				return toDouble(a) + toDouble(b);
			}
			Object x = integral(a);
			Object y = integral(b);
			if (x instanceof Long l && y instanceof Long m) {
				long r = l + m;
				if (((l ^ r) & (m ^ r)) >= 0) {
					return r;
				}
			}
			return normalize(big(x).add(big(y)));
		}
		if (isList(a) && isList(b)) {
			List<?> x = (List<?>) a;
			List<?> y = (List<?>) b;
			checkItems((long) x.size() + y.size());
			List<Object> result = new ArrayList<>(x.size() + y.size());
			result.addAll(x);
			result.addAll(y);
			return result;
		}
		if (a instanceof PyTuple x && b instanceof PyTuple y) {
			checkItems((long) x.size() + y.size());
			List<Object> result = new ArrayList<>(x);
			result.addAll(y);
			return PyTuple.of(result);
		}
		if (a instanceof String || isList(a) || a instanceof PyTuple) {
			throw typeError("can only concatenate " + typeName(a) + " (not \"" + typeName(b) + "\") to " + typeName(a));
		}
		throw unsupported("+", a, b);
	}

	static Object sub(Object a, Object b) {
		checkUndefined(a, b);
		if (isNumber(a) && isNumber(b)) {
			if (isFloat(a) || isFloat(b)) {
				return toDouble(a) - toDouble(b);
			}
			Object x = integral(a);
			Object y = integral(b);
			if (x instanceof Long l && y instanceof Long m) {
				long r = l - m;
				if (((l ^ m) & (l ^ r)) >= 0) {
					return r;
				}
			}
			return normalize(big(x).subtract(big(y)));
		}
		throw unsupported("-", a, b);
	}

	static Object mul(Object a, Object b) {
		checkUndefined(a, b);
		if (isNumber(a) && isNumber(b)) {
			if (isFloat(a) || isFloat(b)) {
				return toDouble(a) * toDouble(b);
			}
			return normalize(big(integral(a)).multiply(big(integral(b))));
		}
		if ((isInt(a) || a instanceof Boolean) && !isNumber(b)) {
			return mul(b, a);
		}
		if (isInt(b) || b instanceof Boolean) {
			long count = Math.max(0, index(b, "count"));
			if (a instanceof String s) {
				if (s.isEmpty() || count == 0) {
					return "";
				}
				checkSize(s.length() * Math.min(count, MAX_SIZE + 1));
				return s.repeat((int) count);
			}
			if (a instanceof List<?> l && !(a instanceof PyRange)) {
				List<Object> result = new ArrayList<>();
				if (!l.isEmpty()) {
					checkItems(l.size() * Math.min(count, MAX_ITEMS + 1));
					for (long i = 0; i < count; i++) {
						result.addAll(l);
					}
				}
				return (a instanceof PyTuple) ? PyTuple.of(result) : result;
			}
		}
		if (a instanceof String || a instanceof List<?>) {
			throw typeError("can't multiply sequence by non-int of type '" + typeName(b) + "'");
		}
		throw unsupported("*", a, b);
	}

	static Object truediv(Object a, Object b) {
		checkUndefined(a, b);
		if (isNumber(a) && isNumber(b)) {
			double y = toDouble(b);
			if (y == 0) {
				throw new TemplateException(isFloat(a) || isFloat(b) ? "float division by zero" : "division by zero");
			}
			return toDouble(a) / y;
		}
		throw unsupported("/", a, b);
	}

	static Object floordiv(Object a, Object b) {
		checkUndefined(a, b);
		if (isNumber(a) && isNumber(b)) {
			if (isFloat(a) || isFloat(b)) {
				double y = toDouble(b);
				if (y == 0) {
					throw new TemplateException("float floor division by zero");
				}
				return floatFloorDiv(toDouble(a), y);
			}
			BigInteger y = big(integral(b));
			if (y.signum() == 0) {
				throw new TemplateException("integer division or modulo by zero");
			}
			BigInteger[] qr = big(integral(a)).divideAndRemainder(y);
			BigInteger q = (qr[1].signum() != 0 && qr[1].signum() != y.signum()) ? qr[0].subtract(BigInteger.ONE)
					: qr[0];
			return normalize(q);
		}
		throw unsupported("//", a, b);
	}

	static Object mod(Object a, Object b) {
		if (a instanceof String format) {
			return Format.percent(format, b);
		}
		checkUndefined(a, b);
		if (isNumber(a) && isNumber(b)) {
			if (isFloat(a) || isFloat(b)) {
				double y = toDouble(b);
				if (y == 0) {
					throw new TemplateException("float modulo");
				}
				return floatMod(toDouble(a), y);
			}
			BigInteger y = big(integral(b));
			if (y.signum() == 0) {
				throw new TemplateException("integer division or modulo by zero");
			}
			BigInteger r = big(integral(a)).mod(y.abs());
			if (y.signum() < 0 && r.signum() != 0) {
				r = r.add(y);
			}
			return normalize(r);
		}
		throw unsupported("%", a, b);
	}

	/** CPython's {@code float_floor_div}. */
	private static double floatFloorDiv(double x, double y) {
		double mod = x % y;
		double div = (x - mod) / y;
		if (mod != 0 && ((y < 0) != (mod < 0))) {
			div -= 1.0;
		}
		if (div == 0) {
			return Math.copySign(0.0, x / y);
		}
		double floor = Math.floor(div);
		return (div - floor > 0.5) ? floor + 1.0 : floor;
	}

	private static double floatMod(double x, double y) {
		double mod = x % y;
		if (mod != 0) {
			if ((y < 0) != (mod < 0)) {
				mod += y;
			}
		}
		else {
			mod = Math.copySign(0.0, y);
		}
		return mod;
	}

	static Object pow(Object a, Object b) {
		checkUndefined(a, b);
		if (isNumber(a) && isNumber(b)) {
			if (!isFloat(a) && !isFloat(b)) {
				BigInteger base = big(integral(a));
				BigInteger exponent = big(integral(b));
				if (exponent.signum() >= 0) {
					if (base.abs().compareTo(BigInteger.ONE) <= 0) {
						return normalize(base.pow(exponent.signum() == 0 ? 0 : exponent.testBit(0) ? 1 : 2));
					}
					if (exponent.bitLength() > 31 || (long) base.bitLength() * exponent.intValue() > 1_000_000) {
						throw new TemplateException("integer result too large");
					}
					return normalize(base.pow(exponent.intValue()));
				}
				if (base.signum() == 0) {
					throw new TemplateException("0.0 cannot be raised to a negative power");
				}
			}
			double x = toDouble(a);
			double y = toDouble(b);
			if (x == 0 && y < 0) {
				throw new TemplateException("0.0 cannot be raised to a negative power");
			}
			return Math.pow(x, y);
		}
		throw unsupported("** or pow()", a, b);
	}

	static Object negate(Object a) {
		if (a instanceof Undefined u) {
			throw u.error();
		}
		if (isFloat(a)) {
			return -toDouble(a);
		}
		if (isNumber(a)) {
			Object i = integral(a);
			return (i instanceof Long l && l != Long.MIN_VALUE) ? (Object) (-l) : normalize(big(i).negate());
		}
		throw typeError("bad operand type for unary -: '" + typeName(a) + "'");
	}

	static Object plus(Object a) {
		if (a instanceof Undefined u) {
			throw u.error();
		}
		if (isFloat(a)) {
			return toDouble(a);
		}
		if (isNumber(a)) {
			return integral(a);
		}
		throw typeError("bad operand type for unary +: '" + typeName(a) + "'");
	}

	// containers

	/** A dict key in the form stored by template-built dicts (integers as {@code Long}). */
	static Object key(Object k) {
		if (k instanceof Integer || k instanceof Short || k instanceof Byte) {
			return ((Number) k).longValue();
		}
		if (k instanceof BigInteger b) {
			return normalize(b);
		}
		if (k instanceof PyTuple tuple) {
			for (Object item : tuple) {
				key(item);
			}
			return k;
		}
		if (k instanceof List<?> || k instanceof Map<?, ?> || k instanceof Namespace) {
			throw typeError("unhashable type: '" + typeName(k) + "'");
		}
		return k;
	}

	/** The value of a key, or {@link Scope#MISSING}. */
	static Object mapGet(Map<?, ?> map, Object key) {
		Object k;
		try {
			k = key(key);
		}
		catch (TemplateException ex) {
			return Scope.MISSING;
		}
		Object value = lookup(map, k);
		if (value == Scope.MISSING && k instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
			value = lookup(map, l.intValue());
		}
		return value;
	}

	/** Looks a key up in any map, including ones that refuse null or foreign keys. */
	private static Object lookup(Map<?, ?> map, Object key) {
		try {
			Object value = map.get(key);
			return (value != null || map.containsKey(key)) ? value : Scope.MISSING;
		}
		catch (RuntimeException ex) {
			return Scope.MISSING;
		}
	}

	static boolean contains(Object container, Object item) {
		if (container instanceof String s) {
			if (item instanceof String sub) {
				return s.contains(sub);
			}
			throw typeError("'in <string>' requires string as left operand, not " + typeName(item));
		}
		if (container instanceof List<?> list) {
			for (Object element : list) {
				if (eq(element, item)) {
					return true;
				}
			}
			return false;
		}
		if (container instanceof Map<?, ?> map) {
			key(item);
			return mapGet(map, item) != Scope.MISSING;
		}
		if (container instanceof DictView view && view.kind() == DictView.Kind.KEYS) {
			return contains(view.map(), item);
		}
		if (container instanceof Undefined) {
			return false;
		}
		if (container instanceof DictView || container instanceof PyIterator) {
			for (Object element : list(container)) {
				if (eq(element, item)) {
					return true;
				}
			}
			return false;
		}
		throw typeError("argument of type '" + typeName(container) + "' is not iterable");
	}

	/** jinja2's {@code getattr}: a Python attribute, else the item of that name, else undefined. */
	static Object getattr(Object obj, String name) {
		if (obj instanceof Undefined u) {
			throw u.error();
		}
		if (obj instanceof Map<?, ?> map) {
			if (DICT_METHODS.contains(name)) {
				return new BoundMethod(obj, name);
			}
			if (DICT_MUTATORS.contains(name)) {
				return Undefined.unsafe(obj, name);
			}
			Object value = mapGet(map, name);
			return (value != Scope.MISSING) ? value : Undefined.member(obj, name);
		}
		return attribute(obj, name);
	}

	/** A Python attribute only (no item fallback); undefined if there is none. */
	static Object attribute(Object obj, String name) {
		if (obj instanceof Map<?, ?>) {
			if (DICT_METHODS.contains(name)) {
				return new BoundMethod(obj, name);
			}
			return DICT_MUTATORS.contains(name) ? Undefined.unsafe(obj, name) : Undefined.member(obj, name);
		}
		if (obj instanceof String) {
			return Methods.isStringMethod(name) ? new BoundMethod(obj, name) : Undefined.member(obj, name);
		}
		if (obj instanceof List<?> && !(obj instanceof PyRange)) {
			if (LIST_METHODS.contains(name) && (isList(obj) || !name.equals("copy"))) {
				return new BoundMethod(obj, name);
			}
			return (isList(obj) && LIST_MUTATORS.contains(name)) ? Undefined.unsafe(obj, name)
					: Undefined.member(obj, name);
		}
		if (obj instanceof Namespace ns) {
			Object value = ns.attributes.get(name);
			return (value != null || ns.attributes.containsKey(name)) ? value : Undefined.member(obj, name);
		}
		if (obj instanceof LoopContext loop) {
			return loop.attribute(name);
		}
		if (isNumber(obj)) {
			return switch (name) {
				case "real" -> plus(obj);
				case "imag" -> isFloat(obj) ? (Object) 0.0 : (Object) 0L;
				case "numerator" -> isFloat(obj) ? Undefined.member(obj, name) : integral(obj);
				case "denominator" -> isFloat(obj) ? Undefined.member(obj, name) : (Object) 1L;
				default -> Undefined.member(obj, name);
			};
		}
		if (obj instanceof Macro macro && name.equals("name")) {
			return macro.name;
		}
		if (obj instanceof Globals.Cycler cycler) {
			return cycler.attribute(name);
		}
		return Undefined.member(obj, name);
	}

	/** jinja2's {@code getitem}: the item, else the attribute of that name, else undefined. */
	static Object getitem(Object obj, Object key) {
		if (obj instanceof Undefined u) {
			throw u.error();
		}
		if (key instanceof SliceKey slice) {
			return slice(obj, slice);
		}
		if (obj instanceof Map<?, ?> map) {
			Object value = mapGet(map, key);
			if (value != Scope.MISSING) {
				return value;
			}
		}
		else if (obj instanceof List<?> list && (isInt(key) || key instanceof Boolean)) {
			long i = index(key, "index");
			if (i < 0) {
				i += list.size();
			}
			if (i >= 0 && i < list.size()) {
				return list.get((int) i);
			}
		}
		else if (obj instanceof String s && (isInt(key) || key instanceof Boolean)) {
			long i = index(key, "index");
			boolean surrogates = Strings.hasSurrogates(s);
			int length = surrogates ? s.codePointCount(0, s.length()) : s.length();
			if (i < 0) {
				i += length;
			}
			if (i >= 0 && i < length) {
				if (!surrogates) {
					return String.valueOf(s.charAt((int) i));
				}
				int offset = s.offsetByCodePoints(0, (int) i);
				return new String(Character.toChars(s.codePointAt(offset)));
			}
		}
		if (key instanceof String name && obj != null) {
			return attribute(obj, name);
		}
		return Undefined.member(obj, key);
	}

	/** A slice key {@code [start:stop:step]}; null parts are None. */
	record SliceKey(Object start, Object stop, Object step) {

	}

	private static Object slice(Object obj, SliceKey key) {
		if (obj instanceof Map<?, ?>) {
			throw typeError("unhashable type: 'slice'");
		}
		if (!(obj instanceof String) && !(obj instanceof List<?>)) {
			throw typeError("'" + typeName(obj) + "' object is not subscriptable");
		}
		long step = (key.step() == null) ? 1 : sliceIndex(key.step());
		if (step == 0) {
			throw new TemplateException("slice step cannot be zero");
		}
		String s = (obj instanceof String str) ? str : null;
		int[] codePoints = (s != null && Strings.hasSurrogates(s)) ? s.codePoints().toArray() : null;
		long length = (s == null) ? ((List<?>) obj).size() : (codePoints != null) ? codePoints.length : s.length();
		long lower = (step < 0) ? -1 : 0;
		long upper = (step < 0) ? length - 1 : length;
		long start = (key.start() == null) ? ((step < 0) ? upper : lower) : clampSlice(key.start(), length, lower, upper);
		long stop = (key.stop() == null) ? ((step < 0) ? lower : upper) : clampSlice(key.stop(), length, lower, upper);
		if (s != null) {
			if (step == 1 && codePoints == null) {
				return (start < stop) ? s.substring((int) start, (int) stop) : "";
			}
			StringBuilder sb = new StringBuilder();
			for (long i = start; (step > 0) ? i < stop : i > stop; i += step) {
				if (codePoints != null) {
					sb.appendCodePoint(codePoints[(int) i]);
				}
				else {
					sb.append(s.charAt((int) i));
				}
			}
			return sb.toString();
		}
		List<?> list = (List<?>) obj;
		List<Object> result = new ArrayList<>();
		if (step == 1) {
			if (start < stop) {
				result.addAll(list.subList((int) start, (int) stop));
			}
		}
		else {
			for (long i = start; (step > 0) ? i < stop : i > stop; i += step) {
				result.add(list.get((int) i));
			}
		}
		return (obj instanceof PyTuple) ? PyTuple.of(result) : result;
	}

	private static long sliceIndex(Object o) {
		if (isInt(o) || o instanceof Boolean) {
			return index(o, "slice index");
		}
		if (o instanceof Undefined u) {
			throw u.error();
		}
		throw typeError("slice indices must be integers or None or have an __index__ method");
	}

	private static long clampSlice(Object o, long length, long lower, long upper) {
		long i = sliceIndex(o);
		if (i < 0) {
			i = Math.max(i + length, lower);
		}
		else {
			i = Math.min(i, upper);
		}
		return i;
	}

	/** Python's {@code len(v)}. */
	static int len(Object v) {
		if (v instanceof String s) {
			return Strings.length(s);
		}
		if (v instanceof Collection<?> c) {
			return c.size();
		}
		if (v instanceof Map<?, ?> m) {
			return m.size();
		}
		if (v instanceof DictView view) {
			return view.map().size();
		}
		if (v instanceof Undefined) {
			return 0;
		}
		if (v instanceof Namespace ns) {
			throw typeError("object of type 'Namespace' has no len()");
		}
		throw typeError("object of type '" + typeName(v) + "' has no len()");
	}

	static boolean isIterable(Object v) {
		return v instanceof String || v instanceof Collection<?> || v instanceof Map<?, ?> || v instanceof DictView
				|| v instanceof PyIterator || v instanceof Undefined || v instanceof LoopContext;
	}

	/** The items iterating over a value gives (consuming an iterator); a list passed in is returned as is. */
	@SuppressWarnings("unchecked")
	static List<Object> list(Object v) {
		if (v instanceof List<?> list) {
			return (List<Object>) list;
		}
		if (v instanceof Collection<?> collection) {
			return new ArrayList<>(collection);
		}
		if (v instanceof String s) {
			List<Object> chars = new ArrayList<>(s.length());
			for (int i = 0; i < s.length();) {
				int cp = s.codePointAt(i);
				chars.add(new String(Character.toChars(cp)));
				i += Character.charCount(cp);
			}
			return chars;
		}
		if (v instanceof Map<?, ?> map) {
			return new ArrayList<>(map.keySet());
		}
		if (v instanceof DictView view) {
			return switch (view.kind()) {
				case KEYS -> new ArrayList<>(view.map().keySet());
				case VALUES -> new ArrayList<>(view.map().values());
				case ITEMS -> {
					List<Object> items = new ArrayList<>(view.map().size());
					for (Map.Entry<?, ?> entry : view.map().entrySet()) {
						items.add(new PyTuple(entry.getKey(), entry.getValue()));
					}
					yield items;
				}
			};
		}
		if (v instanceof PyIterator it) {
			List<Object> items = new ArrayList<>();
			while (it.iterator.hasNext()) {
				items.add(it.iterator.next());
				checkItems(items.size());
			}
			return items;
		}
		if (v instanceof Undefined) {
			return Collections.emptyList();
		}
		if (v instanceof LoopContext loop) {
			return loop.items;
		}
		throw typeError("'" + typeName(v) + "' object is not iterable");
	}

	/** An iterator over a value, lazy for iterators. */
	@SuppressWarnings("unchecked")
	static Iterator<Object> iterator(Object v) {
		if (v instanceof PyIterator it) {
			return it.iterator;
		}
		if (v instanceof Collection<?> c) {
			return (Iterator<Object>) c.iterator();
		}
		return list(v).iterator();
	}

	/** Unpacks a value into exactly {@code count} items, as a tuple assignment does. */
	static List<Object> unpack(Object v, int count) {
		List<Object> items = list(v);
		if (items.size() < count) {
			throw new TemplateException(
					"not enough values to unpack (expected " + count + ", got " + items.size() + ")");
		}
		if (items.size() > count) {
			throw new TemplateException("too many values to unpack (expected " + count + ")");
		}
		return items;
	}

	static Object call(Context context, Object f, Args args) {
		if (f instanceof PyCallable callable) {
			return callable.call(context, args);
		}
		if (f instanceof Undefined u) {
			throw u.error();
		}
		throw typeError("'" + typeName(f) + "' object is not callable");
	}

	/** Builds a dict from Python's {@code dict(mapping_or_pairs, **kwargs)} arguments. */
	static Map<Object, Object> dict(Args args, String function) {
		if (args.positional.size() > 1) {
			throw typeError(function + " expected at most 1 argument, got " + args.positional.size());
		}
		Map<Object, Object> result = new LinkedHashMap<>();
		if (!args.positional.isEmpty()) {
			Object source = args.positional.get(0);
			if (source instanceof Map<?, ?> map) {
				for (Map.Entry<?, ?> entry : map.entrySet()) {
					result.put(key(entry.getKey()), entry.getValue());
				}
			}
			else if (source instanceof Namespace ns) {
				throw typeError("'Namespace' object is not iterable");
			}
			else {
				for (Object pair : list(source)) {
					List<Object> kv = unpack(pair, 2);
					result.put(key(kv.get(0)), kv.get(1));
				}
			}
		}
		result.putAll(args.keywords);
		return result;
	}

}
