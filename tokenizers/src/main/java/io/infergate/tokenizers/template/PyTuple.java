package io.infergate.tokenizers.template;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/** A Python tuple: an immutable list that prints as {@code (a, b)}. */
final class PyTuple extends AbstractList<Object> implements RandomAccess {

	static final PyTuple EMPTY = new PyTuple(new Object[0]);

	private final Object[] items;

	PyTuple(Object... items) {
		this.items = items;
	}

	static PyTuple of(List<?> items) {
		return new PyTuple(items.toArray());
	}

	@Override
	public Object get(int index) {
		return this.items[index];
	}

	@Override
	public int size() {
		return this.items.length;
	}

}
