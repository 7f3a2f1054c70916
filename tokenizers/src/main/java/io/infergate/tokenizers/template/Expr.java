package io.infergate.tokenizers.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A compiled expression; {@link #eval(Context)} computes its value with Python semantics. */
abstract class Expr {

	final int pos;

	Expr(int pos) {
		this.pos = pos;
	}

	abstract Object eval(Context context);

	/** Writes the value as {@code {{ }}} prints it. */
	void write(Context context) {
		context.write(Values.str(eval(context)));
	}

	static TemplateException locate(TemplateException ex, int pos) {
		return ex.at(pos);
	}

	static final class Const extends Expr {

		final Object value;

		private final String text;

		Const(int pos, Object value) {
			super(pos);
			this.value = value;
			this.text = Values.str(value);
		}

		@Override
		Object eval(Context context) {
			return this.value;
		}

		@Override
		void write(Context context) {
			context.write(this.text);
		}

	}

	static final class Name extends Expr {

		final String name;

		Name(int pos, String name) {
			super(pos);
			this.name = name;
		}

		@Override
		Object eval(Context context) {
			return context.lookup(this.name);
		}

	}

	/** {@code obj.name}, also parsed from {@code ns.attr} assignment targets. */
	static final class GetAttr extends Expr {

		final Expr obj;

		final String name;

		GetAttr(int pos, Expr obj, String name) {
			super(pos);
			this.obj = obj;
			this.name = name;
		}

		@Override
		Object eval(Context context) {
			Object target = this.obj.eval(context);
			try {
				return Values.getattr(target, this.name);
			}
			catch (TemplateException ex) {
				throw locate(ex, this.pos);
			}
		}

	}

	static final class GetItem extends Expr {

		final Expr obj;

		final Expr key;

		GetItem(int pos, Expr obj, Expr key) {
			super(pos);
			this.obj = obj;
			this.key = key;
		}

		@Override
		Object eval(Context context) {
			Object target = this.obj.eval(context);
			Object k = this.key.eval(context);
			try {
				return Values.getitem(target, k);
			}
			catch (TemplateException ex) {
				throw locate(ex, this.pos);
			}
		}

	}

	static final class Slice extends Expr {

		final Expr start;

		final Expr stop;

		final Expr step;

		Slice(int pos, Expr start, Expr stop, Expr step) {
			super(pos);
			this.start = start;
			this.stop = stop;
			this.step = step;
		}

		@Override
		Object eval(Context context) {
			return new Values.SliceKey(value(this.start, context), value(this.stop, context),
					value(this.step, context));
		}

		private static Object value(Expr e, Context context) {
			return (e != null) ? e.eval(context) : null;
		}

	}

	/** The arguments of a call, filter or test as written. */
	static final class CallArgs {

		static final CallArgs NONE = new CallArgs(new Expr[0], new String[0], new Expr[0], null, null);

		final Expr[] positional;

		final String[] keywordNames;

		final Expr[] keywordValues;

		final Expr starArgs;

		final Expr starKwargs;

		CallArgs(Expr[] positional, String[] keywordNames, Expr[] keywordValues, Expr starArgs, Expr starKwargs) {
			this.positional = positional;
			this.keywordNames = keywordNames;
			this.keywordValues = keywordValues;
			this.starArgs = starArgs;
			this.starKwargs = starKwargs;
		}

		Args eval(Context context) {
			if (this == NONE) {
				return Args.EMPTY;
			}
			List<Object> values = new ArrayList<>(this.positional.length);
			for (Expr e : this.positional) {
				values.add(e.eval(context));
			}
			if (this.starArgs != null) {
				values.addAll(Values.list(this.starArgs.eval(context)));
			}
			Map<String, Object> keywords = (this.keywordNames.length == 0 && this.starKwargs == null) ? Map.of()
					: new LinkedHashMap<>();
			for (int i = 0; i < this.keywordNames.length; i++) {
				keywords.put(this.keywordNames[i], this.keywordValues[i].eval(context));
			}
			if (this.starKwargs != null) {
				Object extra = this.starKwargs.eval(context);
				if (!(extra instanceof Map<?, ?> map)) {
					throw new TemplateException("argument after ** must be a mapping, not " + Values.typeName(extra));
				}
				for (Map.Entry<?, ?> entry : map.entrySet()) {
					if (!(entry.getKey() instanceof String key)) {
						throw new TemplateException("keywords must be strings");
					}
					keywords.put(key, entry.getValue());
				}
			}
			return new Args(values, keywords);
		}

	}

	static final class Call extends Expr {

		final Expr callee;

		final CallArgs args;

		Call(int pos, Expr callee, CallArgs args) {
			super(pos);
			this.callee = callee;
			this.args = args;
		}

		@Override
		Object eval(Context context) {
			if (this.callee instanceof GetAttr attr) {
				Object obj = attr.obj.eval(context);
				Args a = this.args.eval(context);
				try {
					return Methods.callAttribute(context, obj, attr.name, a);
				}
				catch (TemplateException ex) {
					throw locate(ex, this.pos);
				}
			}
			Object f = this.callee.eval(context);
			Args a = this.args.eval(context);
			try {
				return Values.call(context, f, a);
			}
			catch (TemplateException ex) {
				throw locate(ex, this.pos);
			}
		}

	}

	/** {@code value | name(args)}; {@code value} is null in a block filter ({@code set x | f} or {@code filter}). */
	static final class FilterCall extends Expr {

		final Expr value;

		final String name;

		final Filters.Filter filter;

		final CallArgs args;

		FilterCall(int pos, Expr value, String name, Filters.Filter filter, CallArgs args) {
			super(pos);
			this.value = value;
			this.name = name;
			this.filter = filter;
			this.args = args;
		}

		@Override
		Object eval(Context context) {
			return apply(context, this.value.eval(context));
		}

		/** Applies this filter chain to a block's output. */
		Object applyTo(Context context, Object input) {
			Object v = (this.value instanceof FilterCall inner) ? inner.applyTo(context, input) : input;
			return apply(context, v);
		}

		private Object apply(Context context, Object v) {
			Args a = this.args.eval(context);
			try {
				if (this.filter == null) {
					throw new TemplateException("No filter named '" + this.name + "'.");
				}
				return this.filter.apply(context, v, a);
			}
			catch (TemplateException ex) {
				throw locate(ex, this.pos);
			}
		}

	}

	static final class TestCall extends Expr {

		final Expr value;

		final String name;

		final Filters.Test test;

		final CallArgs args;

		TestCall(int pos, Expr value, String name, Filters.Test test, CallArgs args) {
			super(pos);
			this.value = value;
			this.name = name;
			this.test = test;
			this.args = args;
		}

		@Override
		Object eval(Context context) {
			Object v = this.value.eval(context);
			Args a = this.args.eval(context);
			try {
				if (this.test == null) {
					throw new TemplateException("No test named '" + this.name + "'.");
				}
				return this.test.test(context, v, a);
			}
			catch (TemplateException ex) {
				throw locate(ex, this.pos);
			}
		}

	}

	static final class Not extends Expr {

		final Expr operand;

		Not(int pos, Expr operand) {
			super(pos);
			this.operand = operand;
		}

		@Override
		Object eval(Context context) {
			return !Values.truthy(this.operand.eval(context));
		}

	}

	static final class Unary extends Expr {

		final boolean negate;

		final Expr operand;

		Unary(int pos, boolean negate, Expr operand) {
			super(pos);
			this.negate = negate;
			this.operand = operand;
		}

		@Override
		Object eval(Context context) {
			Object v = this.operand.eval(context);
			try {
				return this.negate ? Values.negate(v) : Values.plus(v);
			}
			catch (TemplateException ex) {
				throw locate(ex, this.pos);
			}
		}

	}

	static final class Binary extends Expr {

		final String op;

		final Expr left;

		final Expr right;

		Binary(int pos, String op, Expr left, Expr right) {
			super(pos);
			this.op = op;
			this.left = left;
			this.right = right;
		}

		@Override
		Object eval(Context context) {
			Object a = this.left.eval(context);
			Object b = this.right.eval(context);
			try {
				return apply(this.op, a, b);
			}
			catch (TemplateException ex) {
				throw locate(ex, this.pos);
			}
		}

		static Object apply(String op, Object a, Object b) {
			return switch (op) {
				case "+" -> Values.add(a, b);
				case "-" -> Values.sub(a, b);
				case "*" -> Values.mul(a, b);
				case "/" -> Values.truediv(a, b);
				case "//" -> Values.floordiv(a, b);
				case "%" -> Values.mod(a, b);
				default -> Values.pow(a, b);
			};
		}

		/** Prints a chain of string additions piece by piece instead of building the joined string. */
		@Override
		void write(Context context) {
			if (!this.op.equals("+")) {
				super.write(context);
				return;
			}
			List<Expr> operands = new ArrayList<>();
			Expr e = this;
			while (e instanceof Binary b && b.op.equals("+")) {
				operands.add(b.right);
				e = b.left;
			}
			operands.add(e);
			Object first = operands.get(operands.size() - 1).eval(context);
			if (!(first instanceof String)) {
				context.write(Values.str(evalRest(context, first, operands, operands.size() - 2)));
				return;
			}
			List<String> parts = new ArrayList<>(operands.size());
			parts.add((String) first);
			for (int i = operands.size() - 2; i >= 0; i--) {
				Object next = operands.get(i).eval(context);
				if (!(next instanceof String s)) {
					Object joined = String.join("", parts);
					try {
						joined = Values.add(joined, next);
					}
					catch (TemplateException ex) {
						throw locate(ex, this.pos);
					}
					context.write(Values.str(evalRest(context, joined, operands, i - 1)));
					return;
				}
				parts.add(s);
			}
			for (String part : parts) {
				context.write(part);
			}
		}

		private Object evalRest(Context context, Object accumulated, List<Expr> operands, int from) {
			Object result = accumulated;
			for (int i = from; i >= 0; i--) {
				Object next = operands.get(i).eval(context);
				try {
					result = Values.add(result, next);
				}
				catch (TemplateException ex) {
					throw locate(ex, this.pos);
				}
			}
			return result;
		}

	}

	/** {@code a ~ b ~ c}: string conversion and concatenation. */
	static final class Concat extends Expr {

		final Expr[] parts;

		Concat(int pos, Expr[] parts) {
			super(pos);
			this.parts = parts;
		}

		@Override
		Object eval(Context context) {
			StringBuilder sb = new StringBuilder();
			for (Expr part : this.parts) {
				sb.append(Values.str(part.eval(context)));
				Values.checkSize(sb.length());
			}
			return sb.toString();
		}

		@Override
		void write(Context context) {
			String[] values = new String[this.parts.length];
			for (int i = 0; i < values.length; i++) {
				values[i] = Values.str(this.parts[i].eval(context));
			}
			for (String value : values) {
				context.write(value);
			}
		}

	}

	/** A comparison chain such as {@code a < b <= c} or {@code x not in y}. */
	static final class Compare extends Expr {

		final Expr first;

		final String[] ops;

		final Expr[] operands;

		Compare(int pos, Expr first, String[] ops, Expr[] operands) {
			super(pos);
			this.first = first;
			this.ops = ops;
			this.operands = operands;
		}

		@Override
		Object eval(Context context) {
			Object left = this.first.eval(context);
			for (int i = 0; i < this.ops.length; i++) {
				Object right = this.operands[i].eval(context);
				boolean result;
				try {
					result = switch (this.ops[i]) {
						case "==" -> Values.eq(left, right);
						case "!=" -> !Values.eq(left, right);
						case "in" -> Values.contains(right, left);
						case "notin" -> !Values.contains(right, left);
						default -> Values.compare(this.ops[i], left, right);
					};
				}
				catch (TemplateException ex) {
					throw locate(ex, this.pos);
				}
				if (!result) {
					return false;
				}
				left = right;
			}
			return true;
		}

	}

	static final class And extends Expr {

		final Expr left;

		final Expr right;

		And(int pos, Expr left, Expr right) {
			super(pos);
			this.left = left;
			this.right = right;
		}

		@Override
		Object eval(Context context) {
			Object a = this.left.eval(context);
			return Values.truthy(a) ? this.right.eval(context) : a;
		}

	}

	static final class Or extends Expr {

		final Expr left;

		final Expr right;

		Or(int pos, Expr left, Expr right) {
			super(pos);
			this.left = left;
			this.right = right;
		}

		@Override
		Object eval(Context context) {
			Object a = this.left.eval(context);
			return Values.truthy(a) ? a : this.right.eval(context);
		}

	}

	/** {@code a if test else b}; without else, a false test gives undefined. */
	static final class Conditional extends Expr {

		final Expr test;

		final Expr then;

		final Expr otherwise;

		final int line;

		Conditional(int pos, Expr test, Expr then, Expr otherwise, int line) {
			super(pos);
			this.test = test;
			this.then = then;
			this.otherwise = otherwise;
			this.line = line;
		}

		@Override
		Object eval(Context context) {
			if (Values.truthy(this.test.eval(context))) {
				return this.then.eval(context);
			}
			if (this.otherwise != null) {
				return this.otherwise.eval(context);
			}
			return Undefined.hint("the inline if-expression on line " + this.line
					+ " evaluated to false and no else section was defined.");
		}

	}

	static final class ListExpr extends Expr {

		final Expr[] items;

		ListExpr(int pos, Expr[] items) {
			super(pos);
			this.items = items;
		}

		@Override
		Object eval(Context context) {
			List<Object> values = new ArrayList<>(this.items.length);
			for (Expr item : this.items) {
				values.add(item.eval(context));
			}
			return values;
		}

	}

	static final class TupleExpr extends Expr {

		final Expr[] items;

		TupleExpr(int pos, Expr[] items) {
			super(pos);
			this.items = items;
		}

		@Override
		Object eval(Context context) {
			Object[] values = new Object[this.items.length];
			for (int i = 0; i < values.length; i++) {
				values[i] = this.items[i].eval(context);
			}
			return new PyTuple(values);
		}

	}

	static final class DictExpr extends Expr {

		final Expr[] keys;

		final Expr[] values;

		DictExpr(int pos, Expr[] keys, Expr[] values) {
			super(pos);
			this.keys = keys;
			this.values = values;
		}

		@Override
		Object eval(Context context) {
			Map<Object, Object> map = new LinkedHashMap<>();
			for (int i = 0; i < this.keys.length; i++) {
				Object key = this.keys[i].eval(context);
				try {
					key = Values.key(key);
				}
				catch (TemplateException ex) {
					throw locate(ex, this.pos);
				}
				map.put(key, this.values[i].eval(context));
			}
			return map;
		}

	}

}
