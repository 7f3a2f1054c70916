package io.infergate.routing.openai;

/** What a request's {@code stream_options} says about the usage chunk at the end of a stream. */
public enum StreamOptions {

	/** No {@code stream_options}. */
	ABSENT,

	/** {@code "stream_options": null}. */
	NULL,

	/** An object without {@code "include_usage": true}. */
	WITHOUT_USAGE,

	/** {@code "include_usage": true}. */
	INCLUDE_USAGE
}
