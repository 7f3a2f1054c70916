package io.infergate.routing.openai;

/** The OpenAI generation endpoints the gateway schedules, and how each carries its prompt. */
public enum InferenceApi {

	/** {@code POST /v1/chat/completions}: the prompt is {@code messages}. */
	CHAT_COMPLETIONS("/v1/chat/completions", "messages"),

	/** {@code POST /v1/completions}: the prompt is {@code prompt}. */
	COMPLETIONS("/v1/completions", "prompt");

	private final String path;

	private final String promptField;

	InferenceApi(String path, String promptField) {
		this.path = path;
		this.promptField = promptField;
	}

	public String path() {
		return path;
	}

	public String promptField() {
		return promptField;
	}

	/** The API served at {@code path}, or {@code null}. */
	public static InferenceApi forPath(String path) {
		for (InferenceApi api : values()) {
			if (api.path.equals(path)) {
				return api;
			}
		}
		return null;
	}
}
