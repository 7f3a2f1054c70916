package io.infergate.tokenizers.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The Python methods templates call on strings, dicts and lists, with Python's semantics and errors. */
final class Methods {

	private static final Set<String> STRING_METHODS = Set.of("startswith", "endswith", "strip", "lstrip", "rstrip",
			"split", "rsplit", "splitlines", "upper", "lower", "title", "capitalize", "swapcase", "casefold", "replace",
			"find", "rfind", "index", "rindex", "count", "join", "format", "isdigit", "isalpha", "isalnum", "isspace",
			"islower", "isupper", "istitle", "isnumeric", "isdecimal", "isascii", "isidentifier", "isprintable",
			"removeprefix", "removesuffix", "partition", "rpartition", "center", "ljust", "rjust", "zfill");

	private static final Args.Signature SPLIT = new Args.Signature("split", "sep", null, "maxsplit", -1L);

	private static final Args.Signature SPLITLINES = new Args.Signature("splitlines", "keepends", false);

	private Methods() {
	}

	static boolean isStringMethod(String name) {
		return STRING_METHODS.contains(name);
	}

	/** Calls {@code obj.name(args)}, resolving the attribute as jinja2 does. */
	static Object callAttribute(Context context, Object obj, String name, Args args) {
		Object f = Values.getattr(obj, name);
		if (f instanceof BoundMethod method) {
			return call(context, method.self(), method.name(), args);
		}
		return Values.call(context, f, args);
	}

	static Object call(Context context, Object self, String name, Args args) {
		if (self instanceof String s) {
			return string(s, name, args);
		}
		if (self instanceof Map<?, ?> map) {
			return dict(map, name, args);
		}
		if (self instanceof List<?> list) {
			return list(list, name, args);
		}
		throw new TemplateException("'" + Values.typeName(self) + "' object has no attribute '" + name + "'");
	}

	private static Object[] positional(String name, Args args, int min, int max) {
		if (!args.keywords.isEmpty()) {
			throw new TemplateException(name + "() takes no keyword arguments");
		}
		int n = args.positional.size();
		if (n < min || n > max) {
			throw new TemplateException(name + "() takes " + ((min == max) ? "exactly " + min
					: (n < min) ? "at least " + min : "at most " + max) + " argument(s) (" + n + " given)");
		}
		Object[] values = new Object[max];
		for (int i = 0; i < n; i++) {
			values[i] = args.positional.get(i);
		}
		return values;
	}

	private static String str(Object value, String name) {
		if (value instanceof String s) {
			return s;
		}
		throw new TemplateException(name + "() argument must be str, not " + Values.typeName(value));
	}

	private static String chars(Object value, String name) {
		return (value == null) ? null : str(value, name);
	}

	private static Object string(String s, String name, Args args) {
		switch (name) {
			case "startswith", "endswith" -> {
				Object[] a = positional(name, args, 1, 3);
				String target = slice(s, a[1], a[2]);
				if (target == null) {
					return false;
				}
				List<?> candidates = (a[0] instanceof PyTuple tuple) ? tuple : null;
				if (candidates == null && !(a[0] instanceof String)) {
					throw new TemplateException(name + " first arg must be str or a tuple of str, not "
							+ Values.typeName(a[0]));
				}
				for (Object candidate : (candidates != null) ? candidates : List.of(a[0])) {
					String c = str(candidate, name);
					if (name.equals("startswith") ? target.startsWith(c) : target.endsWith(c)) {
						return true;
					}
				}
				return false;
			}
			case "strip" -> {
				return Strings.strip(s, chars(positional(name, args, 0, 1)[0], name));
			}
			case "lstrip" -> {
				return Strings.lstrip(s, chars(positional(name, args, 0, 1)[0], name));
			}
			case "rstrip" -> {
				return Strings.rstrip(s, chars(positional(name, args, 0, 1)[0], name));
			}
			case "split", "rsplit" -> {
				Object[] a = SPLIT.bind(args);
				String sep = (a[0] == null) ? null : str(a[0], name);
				int max = (int) Math.max(-1, Math.min(Integer.MAX_VALUE, Values.index(a[1], "maxsplit")));
				return name.equals("split") ? Strings.split(s, sep, max) : Strings.rsplit(s, sep, max);
			}
			case "splitlines" -> {
				return Strings.splitlines(s, Values.truthy(SPLITLINES.bind(args)[0]));
			}
			case "upper" -> {
				positional(name, args, 0, 0);
				return Strings.upper(s);
			}
			case "lower", "casefold" -> {
				positional(name, args, 0, 0);
				return Strings.lower(s);
			}
			case "title" -> {
				positional(name, args, 0, 0);
				return Strings.title(s);
			}
			case "capitalize" -> {
				positional(name, args, 0, 0);
				return Strings.capitalize(s);
			}
			case "swapcase" -> {
				positional(name, args, 0, 0);
				return Strings.swapcase(s);
			}
			case "replace" -> {
				Object[] a = positional(name, args, 2, 3);
				long count = (a[2] == null) ? -1 : Values.index(a[2], "count");
				return replace(s, str(a[0], name), str(a[1], name), count);
			}
			case "find", "rfind", "index", "rindex" -> {
				Object[] a = positional(name, args, 1, 3);
				int found = find(s, str(a[0], name), a[1], a[2], name.startsWith("r"));
				if (found < 0 && name.endsWith("index")) {
					throw new TemplateException("substring not found");
				}
				return (long) found;
			}
			case "count" -> {
				Object[] a = positional(name, args, 1, 3);
				String target = slice(s, a[1], a[2]);
				String sub = str(a[0], name);
				if (target == null) {
					return 0L;
				}
				if (sub.isEmpty()) {
					return (long) Strings.length(target) + 1;
				}
				long count = 0;
				for (int i = target.indexOf(sub); i >= 0; i = target.indexOf(sub, i + sub.length())) {
					count++;
				}
				return count;
			}
			case "join" -> {
				Object[] a = positional(name, args, 1, 1);
				List<Object> items = Values.list(a[0]);
				StringBuilder sb = new StringBuilder();
				for (int i = 0; i < items.size(); i++) {
					if (!(items.get(i) instanceof String item)) {
						throw new TemplateException("sequence item " + i + ": expected str instance, "
								+ Values.typeName(items.get(i)) + " found");
					}
					if (i > 0) {
						sb.append(s);
					}
					sb.append(item);
					Values.checkSize(sb.length());
				}
				return sb.toString();
			}
			case "format" -> {
				return Format.format(s, args);
			}
			case "removeprefix" -> {
				String prefix = str(positional(name, args, 1, 1)[0], name);
				return s.startsWith(prefix) ? s.substring(prefix.length()) : s;
			}
			case "removesuffix" -> {
				String suffix = str(positional(name, args, 1, 1)[0], name);
				return (s.endsWith(suffix) && !suffix.isEmpty()) ? s.substring(0, s.length() - suffix.length()) : s;
			}
			case "partition", "rpartition" -> {
				String sep = str(positional(name, args, 1, 1)[0], name);
				if (sep.isEmpty()) {
					throw new TemplateException("empty separator");
				}
				int i = name.equals("partition") ? s.indexOf(sep) : s.lastIndexOf(sep);
				if (i < 0) {
					return name.equals("partition") ? new PyTuple(s, "", "") : new PyTuple("", "", s);
				}
				return new PyTuple(s.substring(0, i), sep, s.substring(i + sep.length()));
			}
			case "center", "ljust", "rjust" -> {
				Object[] a = positional(name, args, 1, 2);
				int width = Values.toInt(a[0], "width");
				String fill = (a[1] == null) ? " " : str(a[1], name);
				if (Strings.length(fill) != 1) {
					throw new TemplateException("The fill character must be exactly one character long");
				}
				int fillChar = fill.codePointAt(0);
				return name.equals("center") ? Strings.center(s, width, fillChar)
						: Strings.pad(s, width, fillChar, name.equals("ljust") ? '<' : '>');
			}
			case "zfill" -> {
				int width = Values.toInt(positional(name, args, 1, 1)[0], "width");
				boolean signed = !s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+');
				String padded = Strings.pad(signed ? s.substring(1) : s, width - (signed ? 1 : 0), '0', '>');
				return signed ? s.charAt(0) + padded : padded;
			}
			default -> {
				positional(name, args, 0, 0);
				return predicate(s, name);
			}
		}
	}

	private static boolean predicate(String s, String name) {
		return switch (name) {
			case "isdigit" -> Strings.all(s, Strings::isDigit);
			case "isdecimal" -> Strings.all(s, Character::isDigit);
			case "isnumeric" -> Strings.all(s, Strings::isNumeric);
			case "isalpha" -> Strings.all(s, Character::isLetter);
			case "isalnum" -> Strings.all(s, Strings::isAlnum);
			case "isspace" -> Strings.all(s, Strings::isSpace);
			case "isascii" -> s.isEmpty() || Strings.all(s, (cp) -> cp < 0x80);
			case "isprintable" -> s.isEmpty() || Strings.all(s, Strings::isPrintable);
			case "isidentifier" -> !s.isEmpty() && (s.codePointAt(0) == '_'
					|| Character.isUnicodeIdentifierStart(s.codePointAt(0)))
					&& Strings.all(s, (cp) -> cp == '_' || Character.isUnicodeIdentifierPart(cp));
			case "islower" -> Strings.isCaseOnly(s, false);
			case "isupper" -> Strings.isCaseOnly(s, true);
			case "istitle" -> Strings.isTitle(s);
			default -> throw new TemplateException("str." + name + "() is not supported");
		};
	}

	/** Python's {@code s[start:end]} for the optional start/end of find, count and startswith; null if empty-out. */
	private static String slice(String s, Object start, Object end) {
		if (start == null && end == null) {
			return s;
		}
		int length = Strings.length(s);
		long from = (start == null) ? 0 : Values.index(start, "slice index");
		long to = (end == null) ? length : Values.index(end, "slice index");
		from = (from < 0) ? Math.max(0, from + length) : from;
		to = (to < 0) ? Math.max(0, to + length) : Math.min(to, length);
		if (from > length) {
			return null;
		}
		boolean surrogates = length != s.length();
		int a = Strings.offset(s, (int) from, surrogates);
		int b = Strings.offset(s, (int) Math.max(from, to), surrogates);
		return s.substring(a, b);
	}

	private static int find(String s, String sub, Object start, Object end, boolean reverse) {
		int length = Strings.length(s);
		long from = (start == null) ? 0 : Values.index(start, "slice index");
		long to = (end == null) ? length : Values.index(end, "slice index");
		from = (from < 0) ? Math.max(0, from + length) : from;
		to = (to < 0) ? Math.max(0, to + length) : Math.min(to, length);
		if (from > length || to - from < Strings.length(sub)) {
			return -1;
		}
		boolean surrogates = length != s.length();
		int a = Strings.offset(s, (int) from, surrogates);
		int b = Strings.offset(s, (int) to, surrogates);
		int i = reverse ? s.lastIndexOf(sub, b - sub.length()) : s.indexOf(sub, a);
		if (i < a || i + sub.length() > b) {
			return -1;
		}
		return surrogates ? s.codePointCount(0, i) : i;
	}

	static String replace(String s, String old, String replacement, long count) {
		if (count < 0) {
			count = Long.MAX_VALUE;
		}
		StringBuilder sb = new StringBuilder(s.length());
		if (old.isEmpty()) {
			long done = 0;
			for (int i = 0; i < s.length();) {
				if (done++ < count) {
					sb.append(replacement);
				}
				int cp = s.codePointAt(i);
				sb.appendCodePoint(cp);
				i += Character.charCount(cp);
				Values.checkSize(sb.length());
			}
			if (done < count) {
				sb.append(replacement);
			}
			return sb.toString();
		}
		int start = 0;
		long done = 0;
		for (int i = s.indexOf(old); i >= 0 && done < count; i = s.indexOf(old, start)) {
			sb.append(s, start, i).append(replacement);
			Values.checkSize(sb.length());
			start = i + old.length();
			done++;
		}
		return sb.append(s, start, s.length()).toString();
	}

	private static Object dict(Map<?, ?> map, String name, Args args) {
		switch (name) {
			case "items" -> {
				positional(name, args, 0, 0);
				return new DictView(map, DictView.Kind.ITEMS);
			}
			case "keys" -> {
				positional(name, args, 0, 0);
				return new DictView(map, DictView.Kind.KEYS);
			}
			case "values" -> {
				positional(name, args, 0, 0);
				return new DictView(map, DictView.Kind.VALUES);
			}
			case "get" -> {
				Object[] a = positional(name, args, 1, 2);
				Values.key(a[0]);
				Object value = Values.mapGet(map, a[0]);
				return (value != Scope.MISSING) ? value : a[1];
			}
			case "copy" -> {
				positional(name, args, 0, 0);
				return new LinkedHashMap<Object, Object>(map);
			}
			default -> throw new TemplateException("dict." + name + "() is not supported");
		}
	}

	private static Object list(List<?> list, String name, Args args) {
		switch (name) {
			case "index" -> {
				Object[] a = positional(name, args, 1, 3);
				int size = list.size();
				long from = (a[1] == null) ? 0 : Values.index(a[1], "index");
				long to = (a[2] == null) ? size : Values.index(a[2], "index");
				from = (from < 0) ? Math.max(0, from + size) : from;
				to = (to < 0) ? Math.max(0, to + size) : Math.min(to, size);
				for (long i = from; i < to; i++) {
					if (Values.eq(list.get((int) i), a[0])) {
						return i;
					}
				}
				throw new TemplateException((list instanceof PyTuple) ? "tuple.index(x): x not in tuple"
						: Values.repr(a[0]) + " is not in list");
			}
			case "count" -> {
				Object[] a = positional(name, args, 1, 1);
				long count = 0;
				for (Object item : list) {
					if (Values.eq(item, a[0])) {
						count++;
					}
				}
				return count;
			}
			case "copy" -> {
				positional(name, args, 0, 0);
				return new ArrayList<Object>(list);
			}
			default -> throw new TemplateException("list." + name + "() is not supported");
		}
	}

}
