package io.infergate.routing.prefix;

/**
 * A movable window over a prompt, so a block can be hashed in place without copying it into a String or an array.
 * One instance serves one hashing pass on one thread.
 */
final class CharRegion implements CharSequence {

	private final CharSequence text;

	private int start;

	private int length;

	CharRegion(CharSequence text) {
		this.text = text;
	}

	CharRegion select(int start, int length) {
		this.start = start;
		this.length = length;
		return this;
	}

	@Override
	public int length() {
		return length;
	}

	@Override
	public char charAt(int index) {
		return text.charAt(start + index);
	}

	@Override
	public CharSequence subSequence(int from, int to) {
		return text.subSequence(start + from, start + to);
	}

	@Override
	public String toString() {
		return text.subSequence(start, start + length).toString();
	}
}
