package io.infergate.routing.openai;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.infergate.tokenizers.ModelTokenizer;
import io.infergate.tokenizers.TokenizerException;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A request body's input, kept so that it can be tokenized exactly once it is known which model's tokenizer applies,
 * and tokenized at most once per tokenizer: fallbacks and lanes on the same tokenizer reuse the ids. Not
 * thread-safe; one per request.
 * <ul>
 * <li>chat completions: {@code messages}, {@code tools} and {@code chat_template_kwargs} through the chat template;
 * </li>
 * <li>completions and embeddings: {@code prompt}/{@code input}, a string or a list of strings (each tokenized with
 * the tokenizer's special tokens, and counted together) or token ids (as they are, and counted, but not hashed as a
 * prefix when several prompts are batched);</li>
 * <li>every other API keeps the gateway's estimate ({@link #exactTokens} returns {@code null}).</li>
 * </ul>
 */
public final class PromptSource {

	/**
	 * The largest body whose input is tokenized: 1 MiB. A larger one is refused with 400: a tokenizer takes about a
	 * second per megabyte of text (longer for scripts of one character per token), and no model's context holds
	 * more than that.
	 */
	public static final int MAX_TOKENIZED_BYTES = 1 << 20;

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private final byte[] body;

	private final InferenceApi api;

	private ModelTokenizer tokenizedWith;

	private PromptTokens tokens;

	/** The body as a tree, once parsed. */
	private Map<?, ?> root;

	/** The chat as {@link #renderedWith}'s template rendered it, kept from a look in its cache for the encoding. */
	private String rendered;

	private ModelTokenizer renderedWith;

	public PromptSource(byte[] body, InferenceApi api) {
		this.body = body;
		this.api = api;
	}

	/**
	 * The request's prompt tokens by {@code tokenizer}, or {@code null} when this API's input is estimated whatever
	 * the tokenizer.
	 *
	 * @throws InvalidRequestException when the input cannot be tokenized (a chat template rejecting the messages)
	 */
	public PromptTokens exactTokens(ModelTokenizer tokenizer) throws InvalidRequestException {
		if (tokenizer != tokenizedWith) {
			tokens = tokenize(tokenizer);
			tokenizedWith = tokenizer;
		}
		return tokens;
	}

	/**
	 * The most characters of a chat's rendered text not in the tokenizer's cache that {@link #exactTokensIfCached}
	 * encodes itself: a short new turn (about 64 tokens, 0.1 to 0.2 ms) costs less encoded where the request is than
	 * handed to the tokenizer threads and back.
	 */
	public static final int INLINE_ENCODED_CHARS = 256;

	/**
	 * Tokenizes the request with {@code tokenizer} if every stretch of its rendered chat is in the tokenizer's cache,
	 * or the stretches that are not add up to at most {@value #INLINE_ENCODED_CHARS} characters (a new last turn),
	 * so that {@link #exactTokens} then returns at once.
	 *
	 * @return whether {@link #exactTokens} is now cheap for {@code tokenizer}; false for input that is not a chat,
	 * more new text than that, or input {@link #exactTokens} would refuse (it reports why)
	 */
	public boolean exactTokensIfCached(ModelTokenizer tokenizer) {
		if (tokenizer == tokenizedWith) {
			return true;
		}
		if (body.length > MAX_TOKENIZED_BYTES || api != InferenceApi.CHAT_COMPLETIONS || !tokenizer.caches()) {
			return false;
		}
		try {
			Map<?, ?> root = parse();
			if (!(root.get("messages") instanceof List<?> messages)) {
				return false;
			}
			rendered = tokenizer.renderChat(messages, tools(root), templateArguments(root), true);
			renderedWith = tokenizer;
			int[] ids = tokenizer.encodeRenderedIfCheap(rendered, INLINE_ENCODED_CHARS);
			if (ids == null) {
				return false;
			}
			tokens = PromptTokens.of(ids);
			tokenizedWith = tokenizer;
			return true;
		}
		catch (InvalidRequestException | TokenizerException ex) {
			return false;
		}
	}

	/** The body as a tree, parsed once. */
	private Map<?, ?> parse() throws InvalidRequestException {
		if (root == null) {
			try {
				root = JSON.readValue(body, Map.class);
			}
			catch (JacksonException ex) {
				throw InvalidRequestException.malformed("The request body is not valid JSON.");
			}
		}
		return root;
	}

	/** A chat request's {@code tools}, or {@code null}. */
	static List<?> tools(Map<?, ?> root) {
		return (root.get("tools") instanceof List<?> list) ? list : null;
	}

	/** A chat request's {@code chat_template_kwargs}, keyed by name; empty without them. */
	static Map<String, Object> templateArguments(Map<?, ?> root) {
		Map<String, Object> arguments = new LinkedHashMap<>();
		if (root.get("chat_template_kwargs") instanceof Map<?, ?> kwargs) {
			kwargs.forEach((key, value) -> arguments.put(String.valueOf(key), value));
		}
		return arguments;
	}

	private PromptTokens tokenize(ModelTokenizer tokenizer) throws InvalidRequestException {
		String field = switch (api) {
			case CHAT_COMPLETIONS -> "messages";
			case COMPLETIONS -> "prompt";
			case EMBEDDINGS -> "input";
			default -> null;
		};
		if (field == null) {
			return null;
		}
		if (body.length > MAX_TOKENIZED_BYTES) {
			throw InvalidRequestException.field(field, "The request is too large for its tokens to be counted: "
					+ body.length + " bytes, more than the gateway tokenizes (" + MAX_TOKENIZED_BYTES + ").");
		}
		Map<?, ?> root = parse();
		try {
			if (api == InferenceApi.CHAT_COMPLETIONS) {
				return chat(tokenizer, root);
			}
			if (api == InferenceApi.EMBEDDINGS && root.get("input") == null && root.get("messages") != null) {
				return chat(tokenizer, root);
			}
			return prompts(tokenizer, root.get(field), field);
		}
		catch (TokenizerException ex) {
			throw InvalidRequestException.field(field, "The `" + field + "` cannot be tokenized for this model: "
					+ ex.getMessage());
		}
	}

	private PromptTokens chat(ModelTokenizer tokenizer, Map<?, ?> root) throws InvalidRequestException {
		if (tokenizer == renderedWith) {
			return PromptTokens.of(tokenizer.encodeRendered(rendered));
		}
		if (!(root.get("messages") instanceof List<?> messages)) {
			throw InvalidRequestException.field("messages", "`messages` must be an array.");
		}
		return PromptTokens.of(tokenizer.encodeChat(messages, tools(root), templateArguments(root)));
	}

	private static PromptTokens prompts(ModelTokenizer tokenizer, Object input, String field)
			throws InvalidRequestException {
		if (input instanceof String text) {
			return PromptTokens.of(tokenizer.encodePrompt(text));
		}
		if (!(input instanceof List<?> items) || items.isEmpty()) {
			throw InvalidRequestException.field(field, "`" + field + "` must be a string, an array of strings or "
					+ "an array of token ids.");
		}
		if (items.get(0) instanceof Number) {
			return PromptTokens.of(tokenIds(items, field));
		}
		if (items.size() == 1) {
			return prompts(tokenizer, items.get(0), field);
		}
		int count = 0;
		for (Object item : items) {
			if (item instanceof String text) {
				count += tokenizer.encodePrompt(text).length;
			}
			else if (item instanceof List<?> ids) {
				count += tokenIds(ids, field).length;
			}
			else {
				throw invalid(field);
			}
		}
		return PromptTokens.counted(count);
	}

	private static int[] tokenIds(List<?> ids, String field) throws InvalidRequestException {
		int[] tokens = new int[ids.size()];
		for (int i = 0; i < tokens.length; i++) {
			if (!(ids.get(i) instanceof Number id)) {
				throw invalid(field);
			}
			tokens[i] = id.intValue();
		}
		return tokens;
	}

	private static InvalidRequestException invalid(String field) {
		return InvalidRequestException.field(field, "`" + field + "` must be a string, an array of strings, an "
				+ "array of token ids or an array of such arrays.");
	}
}
