package io.infergate.tokenizers.template;

import java.util.HashMap;

/**
 * One level of jinja2's variable scoping: the template's top level, one iteration of a for loop, a macro call, or a
 * block set. Assignments go to the current scope; lookups walk out to the enclosing ones.
 */
final class Scope {

	static final Object MISSING = new Object();

	/** Marks a name a frame starts as undefined (see {@link Frame}). */
	static final Object UNDEFINED = new Object();

	final Scope parent;

	private HashMap<String, Object> variables;

	Scope(Scope parent) {
		this.parent = parent;
	}

	Object lookup(String name) {
		for (Scope scope = this; scope != null; scope = scope.parent) {
			if (scope.variables != null) {
				Object value = scope.variables.get(name);
				if (value != null || scope.variables.containsKey(name)) {
					return value;
				}
			}
		}
		return MISSING;
	}

	void set(String name, Object value) {
		if (this.variables == null) {
			this.variables = new HashMap<>(8);
		}
		this.variables.put(name, value);
	}

}
