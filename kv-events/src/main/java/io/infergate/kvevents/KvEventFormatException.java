package io.infergate.kvevents;

/** A payload or frame that is not a KV-event batch in either of vLLM's encodings. */
public class KvEventFormatException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	public KvEventFormatException(String message) {
		super(message);
	}

	public KvEventFormatException(String message, Throwable cause) {
		super(message, cause);
	}
}
