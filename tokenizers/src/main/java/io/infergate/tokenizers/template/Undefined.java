package io.infergate.tokenizers.template;

/**
 * jinja2's default {@code Undefined}: prints as an empty string, is falsy and iterates as empty, but attribute or item
 * access, calls and arithmetic raise an error that says how the value came to be undefined.
 */
final class Undefined {

	private static final Object NO_OBJECT = new Object();

	private final String hint;

	private final Object obj;

	private final Object name;

	private Undefined(String hint, Object obj, Object name) {
		this.hint = hint;
		this.obj = obj;
		this.name = name;
	}

	/** An undefined variable. */
	static Undefined variable(String name) {
		return new Undefined(null, NO_OBJECT, name);
	}

	/** A missing attribute or item of an object. */
	static Undefined member(Object obj, Object name) {
		return new Undefined(null, obj, name);
	}

	/** An undefined value with an explicit message. */
	static Undefined hint(String hint) {
		return new Undefined(hint, NO_OBJECT, null);
	}

	/** An attribute the sandbox refuses (a method that would modify an immutable value). */
	static Undefined unsafe(Object obj, String name) {
		return new Undefined("access to attribute '" + name + "' of '" + Values.typeName(obj) + "' object is unsafe.",
				obj, name);
	}

	String message() {
		if (this.hint != null) {
			return this.hint;
		}
		if (this.obj == NO_OBJECT) {
			return Values.repr(this.name) + " is undefined";
		}
		if (!(this.name instanceof String)) {
			return Values.typeRepr(this.obj) + " has no element " + Values.repr(this.name);
		}
		return "'" + Values.typeRepr(this.obj) + "' has no attribute " + Values.repr(this.name);
	}

	TemplateException error() {
		return new TemplateException(message());
	}

	@Override
	public String toString() {
		return "";
	}

}
