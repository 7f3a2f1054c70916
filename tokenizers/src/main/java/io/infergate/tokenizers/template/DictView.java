package io.infergate.tokenizers.template;

import java.util.Map;

/** The view {@code dict.items()}, {@code keys()} or {@code values()} returns. */
record DictView(Map<?, ?> map, Kind kind) {

	enum Kind {

		ITEMS, KEYS, VALUES

	}

	String typeName() {
		return "dict_" + this.kind.name().toLowerCase(java.util.Locale.ROOT);
	}

}
