package io.infergate.tokenizers.template;

import java.time.Clock;
import java.util.Map;

/** The state of one render: the output being written, the current scope, and the guards on runaway templates. */
final class Context {

	static final long MAX_OUTPUT = 64L * 1024 * 1024;

	static final long MAX_ITERATIONS = 10_000_000L;

	static final int MAX_CALL_DEPTH = 100;

	final Map<String, ?> variables;

	final Clock clock;

	StringBuilder out = new StringBuilder(1024);

	Scope scope = new Scope(null);

	private long produced;

	private long iterations;

	int callDepth;

	Context(Map<String, ?> variables, Clock clock) {
		this.variables = variables;
		this.clock = clock;
	}

	Object lookup(String name) {
		Object value = this.scope.lookup(name);
		if (value != Scope.MISSING) {
			return (value != Scope.UNDEFINED) ? value : Undefined.variable(name);
		}
		value = this.variables.get(name);
		if (value != null || this.variables.containsKey(name)) {
			return value;
		}
		value = Globals.get(name);
		return (value != null) ? value : Undefined.variable(name);
	}

	void write(String text) {
		this.produced += text.length();
		if (this.produced > MAX_OUTPUT) {
			throw new TemplateException("the template produced more than " + MAX_OUTPUT + " characters");
		}
		this.out.append(text);
	}

	void countIteration() {
		if (++this.iterations > MAX_ITERATIONS) {
			throw new TemplateException("the template ran more than " + MAX_ITERATIONS + " loop iterations");
		}
	}

}
