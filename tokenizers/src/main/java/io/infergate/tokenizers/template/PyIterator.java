package io.infergate.tokenizers.template;

import java.util.Iterator;

/**
 * A one-shot Python iterator, as jinja2's {@code map}, {@code select} and similar filters return: always truthy, has
 * no length, and is exhausted by the first iteration.
 */
final class PyIterator {

	final String typeName;

	final Iterator<Object> iterator;

	PyIterator(String typeName, Iterator<Object> iterator) {
		this.typeName = typeName;
		this.iterator = iterator;
	}

}
