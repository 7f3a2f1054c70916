package io.infergate.tokenizers.template;

/** A method of a value, such as {@code message.content.startswith}, fetched without being called yet. */
record BoundMethod(Object self, String name) implements PyCallable {

	@Override
	public Object call(Context context, Args args) {
		return Methods.call(context, this.self, this.name, args);
	}

}
