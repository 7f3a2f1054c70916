package io.infergate.routing.openai;

import java.util.List;

/**
 * The OpenAI and vLLM endpoints the gateway routes by the body's {@code model}, which body fields carry each one's
 * input, and what work the request makes a model server do.
 */
public enum InferenceApi {

	/** {@code POST /v1/chat/completions}: the prompt is {@code messages}. */
	CHAT_COMPLETIONS("/v1/chat/completions", Work.GENERATION, "messages"),

	/** {@code POST /v1/completions}: the prompt is {@code prompt}. */
	COMPLETIONS("/v1/completions", Work.GENERATION, "prompt"),

	/**
	 * {@code POST /v1/responses}: the prompt is {@code instructions} (a system message) and {@code input} (a string,
	 * or message and tool-output items); {@code max_output_tokens} bounds the output.
	 */
	RESPONSES("/v1/responses", Work.GENERATION, "input"),

	/** {@code POST /v1/embeddings}: the input is {@code input} (strings or token ids), or vLLM's {@code messages}. */
	EMBEDDINGS("/v1/embeddings", Work.ENCODING, "input", "messages"),

	/** vLLM's {@code POST /v1/rerank}: {@code query} against each of {@code documents}. */
	RERANK("/v1/rerank", Work.ENCODING, "query"),

	/** vLLM's {@code POST /v1/score}: each of {@code text_1} against each of {@code text_2}. */
	SCORE("/v1/score", Work.ENCODING, "text_1"),

	/** vLLM's {@code POST /tokenize}: the text is {@code prompt}, or {@code messages}. */
	TOKENIZE("/tokenize", Work.TOKENIZER, "prompt", "messages"),

	/** vLLM's {@code POST /detokenize}: the input is {@code tokens}. */
	DETOKENIZE("/detokenize", Work.TOKENIZER, "tokens");

	private final String path;

	private final Work work;

	private final List<String> inputFields;

	InferenceApi(String path, Work work, String... inputFields) {
		this.path = path;
		this.work = work;
		this.inputFields = List.of(inputFields);
	}

	public String path() {
		return path;
	}

	/** What the request makes a model server do. */
	public Work work() {
		return work;
	}

	/**
	 * The field the request's input is in, as named in a "missing field" error; the first of
	 * {@link #inputFields()}.
	 */
	public String promptField() {
		return inputFields.get(0);
	}

	/** The fields any one of which carries the request's input. */
	public List<String> inputFields() {
		return inputFields;
	}

	/** The API served at {@code path}, the raw path of a request, or {@code null}. */
	public static InferenceApi forPath(String path) {
		for (InferenceApi api : values()) {
			if (api.path.equals(path)) {
				return api;
			}
		}
		return null;
	}

	/** The work a request makes a model server do, which decides what the scheduler is told about it. */
	public enum Work {

		/**
		 * Prefill then decode: the prompt is hashed for prefix-cache affinity, and the request counts its prompt and
		 * its {@code max_tokens} as in-flight work.
		 */
		GENERATION,

		/**
		 * A prefill only (embeddings, rerank, score): the request counts its input as in-flight work and nothing to
		 * generate. Its input is not hashed: inputs such as documents to embed are rarely shared, and remembering them
		 * would push shared chat prefixes out of the prefix index. Prefix plugins see an empty prompt.
		 */
		ENCODING,

		/** The server's tokenizer only, no engine work: the request counts as in flight with no tokens. */
		TOKENIZER
	}
}
