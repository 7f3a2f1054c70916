package io.infergate.tokenizers.template;

import java.util.List;

/** The {@code loop} variable of a for loop; callable as {@code loop(children)} in a recursive loop. */
final class LoopContext implements PyCallable {

	private static final Object NOTHING = new Object();

	final List<Object> items;

	final int length;

	int index0;

	private Object lastChanged = NOTHING;

	private final int depth;

	private final Node.For recursiveLoop;

	private final Scope outer;

	LoopContext(List<Object> items, int depth, Node.For recursiveLoop, Scope outer) {
		this.items = items;
		this.length = items.size();
		this.depth = depth;
		this.recursiveLoop = recursiveLoop;
		this.outer = outer;
	}

	@Override
	public Object call(Context context, Args args) {
		if (this.recursiveLoop == null) {
			throw new TemplateException("The loop must have the 'recursive' marker to be called recursively.");
		}
		if (args.positional.size() != 1 || !args.keywords.isEmpty()) {
			throw new TemplateException("loop() takes exactly one argument");
		}
		if (context.callDepth >= Context.MAX_CALL_DEPTH) {
			throw new TemplateException("maximum recursion depth exceeded (recursive loop)");
		}
		StringBuilder savedOut = context.out;
		Scope savedScope = context.scope;
		context.out = new StringBuilder();
		context.callDepth++;
		try {
			this.recursiveLoop.loop(context, this.outer, args.positional.get(0), this.depth + 1);
			return context.out.toString();
		}
		finally {
			context.out = savedOut;
			context.scope = savedScope;
			context.callDepth--;
		}
	}

	Object attribute(String name) {
		return switch (name) {
			case "index" -> (long) this.index0 + 1;
			case "index0" -> (long) this.index0;
			case "revindex" -> (long) (this.length - this.index0);
			case "revindex0" -> (long) (this.length - this.index0 - 1);
			case "first" -> this.index0 == 0;
			case "last" -> this.index0 == this.length - 1;
			case "length" -> (long) this.length;
			case "depth" -> (long) this.depth + 1;
			case "depth0" -> (long) this.depth;
			case "previtem" -> (this.index0 > 0) ? this.items.get(this.index0 - 1)
					: Undefined.hint("there is no previous item");
			case "nextitem" -> (this.index0 < this.length - 1) ? this.items.get(this.index0 + 1)
					: Undefined.hint("there is no next item");
			case "cycle" -> (PyCallable) (context, args) -> cycle(args);
			case "changed" -> (PyCallable) (context, args) -> changed(args);
			default -> Undefined.member(this, name);
		};
	}

	private Object cycle(Args args) {
		if (!args.keywords.isEmpty()) {
			throw new TemplateException("cycle() got an unexpected keyword argument");
		}
		if (args.positional.isEmpty()) {
			throw new TemplateException("no items for cycling given");
		}
		return args.positional.get(this.index0 % args.positional.size());
	}

	private Object changed(Args args) {
		PyTuple value = PyTuple.of(args.positional);
		if (this.lastChanged == NOTHING || !Values.eq(this.lastChanged, value)) {
			this.lastChanged = value;
			return true;
		}
		return false;
	}

}
