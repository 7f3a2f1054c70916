package io.infergate.tokenizers.template;

import java.util.ArrayList;
import java.util.List;

/** A compiled statement; {@link #render(Context)} writes its output and reports loop control. */
abstract class Node {

	static final int NORMAL = 0;

	static final int BREAK = 1;

	static final int CONTINUE = 2;

	final int pos;

	Node(int pos) {
		this.pos = pos;
	}

	abstract int render(Context context);

	static int renderAll(Node[] nodes, Context context) {
		for (Node node : nodes) {
			int signal = node.render(context);
			if (signal != NORMAL) {
				return signal;
			}
		}
		return NORMAL;
	}

	/**
	 * Renders a body into a buffer of its own (block set, filter block, macro call) in the given scope.
	 * @return the rendered text, or null if the body ended with break or continue (which then go to the enclosing
	 * loop, as jinja2's inline buffers do)
	 */
	static String capture(Node[] body, Context context, Scope scope, int[] signal) {
		StringBuilder savedOut = context.out;
		Scope savedScope = context.scope;
		context.out = new StringBuilder();
		context.scope = scope;
		try {
			signal[0] = renderAll(body, context);
			return (signal[0] == NORMAL) ? context.out.toString() : null;
		}
		finally {
			context.out = savedOut;
			context.scope = savedScope;
		}
	}

	/** A new scope for a frame, with the names the frame starts as undefined. */
	static Scope enter(Frame frame, Scope parent) {
		Scope scope = new Scope(parent);
		frame.enter(scope);
		return scope;
	}

	/** Statements in a row, as {@code print} with several expressions gives. */
	static final class Sequence extends Node {

		final Node[] nodes;

		Sequence(int pos, Node[] nodes) {
			super(pos);
			this.nodes = nodes;
		}

		@Override
		int render(Context context) {
			return renderAll(this.nodes, context);
		}

	}

	static final class Text extends Node {

		final String text;

		Text(int pos, String text) {
			super(pos);
			this.text = text;
		}

		@Override
		int render(Context context) {
			context.write(this.text);
			return NORMAL;
		}

	}

	static final class Output extends Node {

		final Expr expr;

		Output(int pos, Expr expr) {
			super(pos);
			this.expr = expr;
		}

		@Override
		int render(Context context) {
			try {
				this.expr.write(context);
			}
			catch (TemplateException ex) {
				throw ex.at(this.pos);
			}
			return NORMAL;
		}

	}

	static final class If extends Node {

		final Expr[] tests;

		final Node[][] bodies;

		final Node[] otherwise;

		If(int pos, Expr[] tests, Node[][] bodies, Node[] otherwise) {
			super(pos);
			this.tests = tests;
			this.bodies = bodies;
			this.otherwise = otherwise;
		}

		@Override
		int render(Context context) {
			for (int i = 0; i < this.tests.length; i++) {
				boolean passed;
				try {
					passed = Values.truthy(this.tests[i].eval(context));
				}
				catch (TemplateException ex) {
					throw ex.at(this.tests[i].pos);
				}
				if (passed) {
					return renderAll(this.bodies[i], context);
				}
			}
			return renderAll(this.otherwise, context);
		}

	}

	static final class For extends Node {

		final Target target;

		final Expr iterable;

		final Expr condition;

		final Node[] body;

		final Node[] otherwise;

		final boolean recursive;

		final Frame bodyFrame;

		final Frame elseFrame;

		For(int pos, Target target, Expr iterable, Expr condition, Node[] body, Node[] otherwise, boolean recursive,
				Frame bodyFrame, Frame elseFrame) {
			super(pos);
			this.target = target;
			this.iterable = iterable;
			this.condition = condition;
			this.body = body;
			this.otherwise = otherwise;
			this.recursive = recursive;
			this.bodyFrame = bodyFrame;
			this.elseFrame = elseFrame;
		}

		@Override
		int render(Context context) {
			Object value;
			try {
				value = this.iterable.eval(context);
			}
			catch (TemplateException ex) {
				throw ex.at(this.pos);
			}
			return loop(context, context.scope, value, 0);
		}

		/**
		 * Runs the loop over a value; a recursive loop comes back here through {@code loop(children)}. As in jinja2,
		 * the else block runs unless an iteration reached the end of the body (not by break or continue).
		 * @return the else block's loop control signal, for the enclosing loop
		 */
		int loop(Context context, Scope outer, Object value, int depth) {
			List<Object> items;
			try {
				items = Values.list(value);
				if (this.condition != null) {
					items = filter(context, items, outer);
				}
			}
			catch (TemplateException ex) {
				throw ex.at(this.pos);
			}
			boolean completed = false;
			LoopContext loop = new LoopContext(items, depth, this.recursive ? this : null, outer);
			try {
				for (int i = 0; i < loop.length; i++) {
					context.countIteration();
					loop.index0 = i;
					Scope scope = enter(this.bodyFrame, outer);
					scope.set("loop", loop);
					this.target.assign(context, scope, items.get(i));
					context.scope = scope;
					int signal = renderAll(this.body, context);
					context.scope = outer;
					if (signal == BREAK) {
						break;
					}
					completed |= signal == NORMAL;
				}
				if (!completed && this.otherwise.length > 0) {
					context.scope = enter(this.elseFrame, outer);
					return renderAll(this.otherwise, context);
				}
				return NORMAL;
			}
			catch (TemplateException ex) {
				throw ex.at(this.pos);
			}
			finally {
				context.scope = outer;
			}
		}

		private List<Object> filter(Context context, List<Object> items, Scope outer) {
			List<Object> kept = new ArrayList<>();
			try {
				for (Object item : items) {
					Scope scope = new Scope(outer);
					this.target.assign(context, scope, item);
					context.scope = scope;
					if (Values.truthy(this.condition.eval(context))) {
						kept.add(item);
					}
				}
			}
			finally {
				context.scope = outer;
			}
			return kept;
		}

	}

	static final class Break extends Node {

		Break(int pos) {
			super(pos);
		}

		@Override
		int render(Context context) {
			return BREAK;
		}

	}

	static final class Continue extends Node {

		Continue(int pos) {
			super(pos);
		}

		@Override
		int render(Context context) {
			return CONTINUE;
		}

	}

	static final class Assign extends Node {

		final Target target;

		final Expr value;

		Assign(int pos, Target target, Expr value) {
			super(pos);
			this.target = target;
			this.value = value;
		}

		@Override
		int render(Context context) {
			try {
				this.target.assign(context, context.scope, this.value.eval(context));
			}
			catch (TemplateException ex) {
				throw ex.at(this.pos);
			}
			return NORMAL;
		}

	}

	/** {@code {% set x %}...{% endset %}}, optionally with filters ({@code set x | trim}). */
	static final class AssignBlock extends Node {

		final Target target;

		final Expr.FilterCall filter;

		final Node[] body;

		final Frame frame;

		AssignBlock(int pos, Target target, Expr.FilterCall filter, Node[] body, Frame frame) {
			super(pos);
			this.target = target;
			this.filter = filter;
			this.body = body;
			this.frame = frame;
		}

		@Override
		int render(Context context) {
			int[] signal = new int[1];
			Object value = capture(this.body, context, enter(this.frame, context.scope), signal);
			if (value == null) {
				return signal[0];
			}
			try {
				if (this.filter != null) {
					value = this.filter.applyTo(context, value);
				}
				this.target.assign(context, context.scope, value);
			}
			catch (TemplateException ex) {
				throw ex.at(this.pos);
			}
			return NORMAL;
		}

	}

	/** {@code {% filter f %}...{% endfilter %}}. */
	static final class FilterBlock extends Node {

		final Expr.FilterCall filter;

		final Node[] body;

		final Frame frame;

		FilterBlock(int pos, Expr.FilterCall filter, Node[] body, Frame frame) {
			super(pos);
			this.filter = filter;
			this.body = body;
			this.frame = frame;
		}

		@Override
		int render(Context context) {
			int[] signal = new int[1];
			String text = capture(this.body, context, enter(this.frame, context.scope), signal);
			if (text == null) {
				return signal[0];
			}
			try {
				context.write(Values.str(this.filter.applyTo(context, text)));
			}
			catch (TemplateException ex) {
				throw ex.at(this.pos);
			}
			return NORMAL;
		}

	}

	/** A body rendered in a scope of its own: {@code {% generation %}} and {@code {% with %}}. */
	static final class Scoped extends Node {

		final String[] names;

		final Expr[] values;

		final Node[] body;

		final Frame frame;

		Scoped(int pos, String[] names, Expr[] values, Node[] body, Frame frame) {
			super(pos);
			this.names = names;
			this.values = values;
			this.body = body;
			this.frame = frame;
		}

		@Override
		int render(Context context) {
			Scope outer = context.scope;
			Scope scope = enter(this.frame, outer);
			try {
				for (int i = 0; i < this.names.length; i++) {
					scope.set(this.names[i], this.values[i].eval(context));
				}
			}
			catch (TemplateException ex) {
				throw ex.at(this.pos);
			}
			context.scope = scope;
			try {
				return renderAll(this.body, context);
			}
			finally {
				context.scope = outer;
			}
		}

	}

	static final class MacroDef extends Node {

		final String name;

		final String[] parameters;

		final Expr[] defaults;

		final Node[] body;

		final boolean catchVarargs;

		final boolean catchKwargs;

		final Frame frame;

		MacroDef(int pos, String name, String[] parameters, Expr[] defaults, Node[] body, boolean catchVarargs,
				boolean catchKwargs, Frame frame) {
			super(pos);
			this.name = name;
			this.parameters = parameters;
			this.defaults = defaults;
			this.body = body;
			this.catchVarargs = catchVarargs;
			this.catchKwargs = catchKwargs;
			this.frame = frame;
		}

		@Override
		int render(Context context) {
			context.scope.set(this.name, new Macro(this, context.scope));
			return NORMAL;
		}

	}

	/** An assignment target: a name, a tuple of targets, or a namespace attribute. */
	interface Target {

		void assign(Context context, Scope scope, Object value);

	}

	record NameTarget(String name) implements Target {

		@Override
		public void assign(Context context, Scope scope, Object value) {
			scope.set(this.name, value);
		}

	}

	record TupleTarget(Target[] targets) implements Target {

		@Override
		public void assign(Context context, Scope scope, Object value) {
			List<Object> items = Values.unpack(value, this.targets.length);
			for (int i = 0; i < this.targets.length; i++) {
				this.targets[i].assign(context, scope, items.get(i));
			}
		}

	}

	record NamespaceTarget(String name, String attribute) implements Target {

		@Override
		public void assign(Context context, Scope scope, Object value) {
			Object ns = context.lookup(this.name);
			if (!(ns instanceof Namespace namespace)) {
				throw new TemplateException("cannot assign attribute on non-namespace object");
			}
			namespace.attributes.put(this.attribute, value);
		}

	}

}
