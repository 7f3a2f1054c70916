package io.infergate.tokenizers.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A macro defined by {@code {% macro %}}, closed over the scope it was defined in. */
final class Macro implements PyCallable {

	final String name;

	private final Node.MacroDef definition;

	private final Scope closure;

	Macro(Node.MacroDef definition, Scope closure) {
		this.name = definition.name;
		this.definition = definition;
		this.closure = closure;
	}

	@Override
	public Object call(Context context, Args args) {
		Node.MacroDef def = this.definition;
		if (context.callDepth >= Context.MAX_CALL_DEPTH) {
			throw new TemplateException("maximum recursion depth exceeded (macro '" + this.name + "')");
		}
		Scope scope = Node.enter(def.frame, this.closure);
		String[] parameters = def.parameters;
		boolean[] given = new boolean[parameters.length];
		List<Object> extra = new ArrayList<>();
		for (int i = 0; i < args.positional.size(); i++) {
			if (i < parameters.length) {
				scope.set(parameters[i], args.positional.get(i));
				given[i] = true;
			}
			else if (def.catchVarargs) {
				extra.add(args.positional.get(i));
			}
			else {
				throw new TemplateException("macro '" + this.name + "' takes not more than " + parameters.length
						+ " argument(s)");
			}
		}
		Map<Object, Object> extraKeywords = new LinkedHashMap<>();
		for (Map.Entry<String, Object> keyword : args.keywords.entrySet()) {
			int index = indexOf(parameters, keyword.getKey());
			if (index >= 0) {
				if (given[index]) {
					throw new TemplateException(
							"macro '" + this.name + "' got multiple values for argument '" + keyword.getKey() + "'");
				}
				scope.set(parameters[index], keyword.getValue());
				given[index] = true;
			}
			else if (def.catchKwargs) {
				extraKeywords.put(keyword.getKey(), keyword.getValue());
			}
			else {
				throw new TemplateException(
						"macro '" + this.name + "' takes no keyword argument '" + keyword.getKey() + "'");
			}
		}
		Scope saved = context.scope;
		context.scope = scope;
		try {
			for (int i = 0; i < parameters.length; i++) {
				if (!given[i]) {
					Expr dflt = def.defaults[i];
					scope.set(parameters[i], (dflt != null) ? dflt.eval(context)
							: Undefined.hint("parameter '" + parameters[i] + "' was not provided"));
				}
			}
		}
		finally {
			context.scope = saved;
		}
		if (def.catchVarargs) {
			scope.set("varargs", PyTuple.of(extra));
		}
		if (def.catchKwargs) {
			scope.set("kwargs", extraKeywords);
		}
		context.callDepth++;
		try {
			return Node.capture(def.body, context, scope, new int[1]);
		}
		finally {
			context.callDepth--;
		}
	}

	private static int indexOf(String[] names, String name) {
		for (int i = 0; i < names.length; i++) {
			if (names[i].equals(name)) {
				return i;
			}
		}
		return -1;
	}

}
