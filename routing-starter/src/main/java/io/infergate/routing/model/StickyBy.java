package io.infergate.routing.model;

import java.util.Locale;

/**
 * What keeps one caller on one target of a weighted split ({@code sticky-by}), so a conversation does not flip
 * between models. A request without the key is split by weight like any other.
 */
public enum StickyBy {

	/** The body's {@code user}. */
	USER,

	/** The {@code x-session-id} header, or else the body's {@code user}. */
	SESSION,

	/** The id of the caller's API key; with authentication off every caller is {@code anonymous}. */
	API_KEY,

	/** Each request is split by weight alone. */
	NONE;

	/** The name as configured and reported: {@code user}, {@code session}, {@code api-key}, {@code none}. */
	public String configName() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}
}
