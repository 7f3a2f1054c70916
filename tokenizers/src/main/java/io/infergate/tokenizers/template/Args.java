package io.infergate.tokenizers.template;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/** The evaluated arguments of a call: positional values and keyword values in call order. */
final class Args {

	static final Args EMPTY = new Args(Collections.emptyList(), Collections.emptyMap());

	/** Marks a parameter without a default in a {@link Signature}. */
	static final Object REQUIRED = new Object();

	final List<Object> positional;

	final Map<String, Object> keywords;

	Args(List<Object> positional, Map<String, Object> keywords) {
		this.positional = positional;
		this.keywords = keywords;
	}

	/** These arguments without the first {@code count} positional ones. */
	Args drop(int count) {
		return new Args(this.positional.subList(Math.min(count, this.positional.size()), this.positional.size()),
				this.keywords);
	}

	/** A Python function signature: parameter names with defaults ({@link #REQUIRED} if none). */
	static final class Signature {

		private final String function;

		private final String[] names;

		private final Object[] defaults;

		Signature(String function, Object... namesAndDefaults) {
			this.function = function;
			int count = namesAndDefaults.length / 2;
			this.names = new String[count];
			this.defaults = new Object[count];
			for (int i = 0; i < count; i++) {
				this.names[i] = (String) namesAndDefaults[2 * i];
				this.defaults[i] = namesAndDefaults[2 * i + 1];
			}
		}

		/** Binds arguments to the parameters as Python would, raising its errors. */
		Object[] bind(Args args) {
			if (args.positional.size() > this.names.length) {
				throw new TemplateException(this.function + "() takes at most " + this.names.length + " argument(s) ("
						+ args.positional.size() + " given)");
			}
			Object[] values = new Object[this.names.length];
			boolean[] given = new boolean[this.names.length];
			for (int i = 0; i < args.positional.size(); i++) {
				values[i] = args.positional.get(i);
				given[i] = true;
			}
			for (Map.Entry<String, Object> keyword : args.keywords.entrySet()) {
				int index = indexOf(keyword.getKey());
				if (index < 0) {
					throw new TemplateException(
							this.function + "() got an unexpected keyword argument '" + keyword.getKey() + "'");
				}
				if (given[index]) {
					throw new TemplateException(
							this.function + "() got multiple values for argument '" + keyword.getKey() + "'");
				}
				values[index] = keyword.getValue();
				given[index] = true;
			}
			for (int i = 0; i < values.length; i++) {
				if (!given[i]) {
					if (this.defaults[i] == REQUIRED) {
						throw new TemplateException(
								this.function + "() missing required argument '" + this.names[i] + "'");
					}
					values[i] = this.defaults[i];
				}
			}
			return values;
		}

		private int indexOf(String name) {
			for (int i = 0; i < this.names.length; i++) {
				if (this.names[i].equals(name)) {
					return i;
				}
			}
			return -1;
		}

	}

}
