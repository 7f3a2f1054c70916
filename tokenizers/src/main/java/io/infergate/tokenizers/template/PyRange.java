package io.infergate.tokenizers.template;

import java.util.AbstractList;
import java.util.RandomAccess;

/** Python's {@code range} object: a lazy sequence of integers. */
final class PyRange extends AbstractList<Object> implements RandomAccess {

	private final long start;

	private final long stop;

	private final long step;

	private final int size;

	PyRange(long start, long stop, long step, int size) {
		this.start = start;
		this.stop = stop;
		this.step = step;
		this.size = size;
	}

	@Override
	public Object get(int index) {
		if (index < 0 || index >= this.size) {
			throw new IndexOutOfBoundsException(index);
		}
		return this.start + index * this.step;
	}

	@Override
	public int size() {
		return this.size;
	}

	String repr() {
		return "range(" + this.start + ", " + this.stop + ((this.step != 1) ? ", " + this.step : "") + ")";
	}

}
