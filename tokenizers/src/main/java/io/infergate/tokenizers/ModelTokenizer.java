package io.infergate.tokenizers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.TokenizersLibrary;

import io.infergate.tokenizers.template.ChatTemplate;
import io.infergate.tokenizers.template.TemplateException;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A model's own tokenization, as vLLM's OpenAI server does it: a Hugging Face {@code tokenizer.json} (run by the Rust
 * {@code tokenizers} library through DJL's bindings) and the model's chat template.
 * <ul>
 * <li><b>Chat:</b> the messages are rendered through the chat template with {@code add_generation_prompt} and the
 * tokenizer's special tokens as variables, then tokenized without adding special tokens (the template writes them),
 * as vLLM's {@code /v1/chat/completions} does. Message content given as parts is joined the way vLLM joins text parts
 * for a template that expects strings: the text parts, one per line. An assistant's tool-call {@code arguments}
 * string is parsed to an object first, as vLLM does.</li>
 * <li><b>Completions and embeddings prompts:</b> tokenized with the tokenizer's special tokens added (its
 * post-processor's BOS, for example), as vLLM tokenizes a {@code /v1/completions} prompt.</li>
 * </ul>
 * Text holding lone UTF-16 surrogates (which JSON can carry as {@code \ud800}) is tokenized with each replaced by
 * U+FFFD.
 * <p>
 * A rendered chat is encoded a stretch at a time: the text between two of the tokenizer's added tokens
 * ({@code <|im_start|>}, {@code <|eot_id|>}, …), which the library encodes on its own whatever surrounds it (see
 * {@link AddedTokens}), so the stretches a chat repeats (its system prompt, the turns before the last) are looked up
 * in a cache of recent stretches instead of encoded again ({@link #load(Path, Path, long)}). The ids are those of the
 * whole text encoded at once. Thread-safe; one instance per tokenizer file, held for the application's life.
 */
public final class ModelTokenizer implements AutoCloseable {

	/** The name of a Hugging Face tokenizer file. */
	public static final String TOKENIZER_FILE = "tokenizer.json";

	/** The file beside it that holds the chat template and the special tokens. */
	public static final String CONFIG_FILE = "tokenizer_config.json";

	/** Newer exports keep the chat template in a file of its own beside the tokenizer. */
	public static final String TEMPLATE_FILE = "chat_template.jinja";

	/** How much memory a tokenizer's cache of encoded stretches holds by default: 16 MiB. */
	public static final long DEFAULT_CACHE_BYTES = 16L << 20;

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private static final String[] SPECIAL_TOKEN_NAMES = { "bos_token", "eos_token", "unk_token", "pad_token",
			"sep_token", "cls_token", "mask_token" };

	private final Path file;

	private final HuggingFaceTokenizer tokenizer;

	private final ChatTemplate chatTemplate;

	private final Map<String, Object> specialTokens;

	private final AddedTokens addedTokens;

	private final StretchCache cache;

	private ModelTokenizer(Path file, HuggingFaceTokenizer tokenizer, ChatTemplate chatTemplate,
			Map<String, Object> specialTokens, AddedTokens addedTokens, long cacheBytes) {
		this.file = file;
		this.tokenizer = tokenizer;
		this.chatTemplate = chatTemplate;
		this.specialTokens = specialTokens;
		this.addedTokens = addedTokens;
		this.cache = new StretchCache(addedTokens.splittable() ? cacheBytes : 0);
	}

	/**
	 * Loads a tokenizer with a cache of {@link #DEFAULT_CACHE_BYTES}.
	 *
	 * @see #load(Path, Path, long)
	 */
	public static ModelTokenizer load(Path path, Path chatTemplateFile) {
		return load(path, chatTemplateFile, DEFAULT_CACHE_BYTES);
	}

	/**
	 * Loads a tokenizer.
	 *
	 * @param path a {@code tokenizer.json}, or the directory holding it
	 * @param chatTemplateFile a Jinja chat template to use instead of the one beside the tokenizer, or {@code null}
	 * @param cacheBytes about how much memory the cache of encoded stretches of chats may hold; 0: no cache (a
	 * tokenizer whose added tokens take the text around them has none either)
	 * @throws TokenizerException when a file is missing, unreadable or invalid; the message says which and why
	 */
	public static ModelTokenizer load(Path path, Path chatTemplateFile, long cacheBytes) {
		Path file = Files.isDirectory(path) ? path.resolve(TOKENIZER_FILE) : path;
		if (!Files.isRegularFile(file)) {
			throw new TokenizerException("no tokenizer file at " + file);
		}
		Path directory = file.toAbsolutePath().getParent();
		JsonNode config = readConfig(directory.resolve(CONFIG_FILE));
		ChatTemplate template = chatTemplate(chatTemplateFile, directory, config);
		HuggingFaceTokenizer tokenizer;
		try {
			tokenizer = HuggingFaceTokenizer.newInstance(file,
					Map.of("addSpecialTokens", "true", "truncation", "false", "padding", "false"));
		}
		catch (IOException | RuntimeException ex) {
			throw new TokenizerException("cannot load " + file + ": " + firstLine(ex));
		}
		AddedTokens added;
		try {
			added = AddedTokens.read(JSON, file);
		}
		catch (TokenizerException ex) {
			tokenizer.close();
			throw ex;
		}
		return new ModelTokenizer(file, tokenizer, template, specialTokens(config), added, cacheBytes);
	}

	/** The tokenizer file this was loaded from. */
	public Path file() {
		return file;
	}

	public boolean hasChatTemplate() {
		return chatTemplate != null;
	}

	/**
	 * The token ids of a chat request's prompt.
	 *
	 * @param messages the request's {@code messages}, as parsed JSON (maps, lists, strings, numbers, booleans, nulls)
	 * @param tools the request's {@code tools}, or {@code null}
	 * @param templateArguments the request's {@code chat_template_kwargs}, or an empty map
	 * @throws TokenizerException when the tokenizer has no chat template or the template fails on these messages
	 */
	public int[] encodeChat(List<?> messages, List<?> tools, Map<String, ?> templateArguments) {
		return encodeRendered(renderChat(messages, tools, templateArguments, true));
	}

	/**
	 * The token ids of a rendered chat, without added special tokens: {@link #encode encode(text, false)}, a stretch
	 * at a time through the cache when there is one.
	 */
	public int[] encodeRendered(String text) {
		return cache.enabled() ? encodeStretches(Utf16.withoutLoneSurrogates(text), ENCODE_EVERY_MISS)
				: encode(text, false);
	}

	/**
	 * {@link #encodeChat}'s ids when every stretch of the rendered chat is in the cache (the template rendered, then
	 * lookups only, nothing encoded), else {@code null}: a caller that must not wait for the library (an event loop)
	 * tries this first.
	 *
	 * @throws TokenizerException as {@link #encodeChat} does
	 */
	public int[] encodeChatIfCached(List<?> messages, List<?> tools, Map<String, ?> templateArguments) {
		return caches() ? encodeRenderedIfCached(renderChat(messages, tools, templateArguments, true)) : null;
	}

	/** Whether it has a cache of encoded stretches: without one, no text is ever {@code IfCached}. */
	public boolean caches() {
		return cache.enabled();
	}

	/** {@link #encodeRendered}'s ids when every stretch of {@code text} is in the cache, else {@code null}. */
	public int[] encodeRenderedIfCached(String text) {
		return encodeRenderedIfCheap(text, 0);
	}

	/**
	 * As {@link #encodeRenderedIfCached}, but the stretches not cached are encoded (and cached) while their
	 * characters add up to at most {@code maxUncachedChars}: a conversation whose only new text is a short last turn
	 * costs that turn's encoding. {@code null} as soon as the new text would exceed it, or without a cache.
	 */
	public int[] encodeRenderedIfCheap(String text, int maxUncachedChars) {
		return cache.enabled() ? encodeStretches(Utf16.withoutLoneSurrogates(text), Math.max(0, maxUncachedChars))
				: null;
	}

	/** {@link #encodeStretches}'s budget for encoding every stretch not cached. */
	private static final int ENCODE_EVERY_MISS = -1;

	/**
	 * The ids of {@code clean} a stretch at a time through the cache. A stretch not cached is encoded and cached:
	 * every one with {@link #ENCODE_EVERY_MISS}, else while their characters add up to at most
	 * {@code uncachedBudget}, past which the work ends with {@code null} (stretches found are then counted only when
	 * all the text was had, those encoded always).
	 */
	private int[] encodeStretches(String clean, int uncachedBudget) {
		boolean encodeEvery = uncachedBudget == ENCODE_EVERY_MISS;
		Ids ids = new Ids(Math.max(16, clean.length() / 3));
		int[] counts = new int[3]; // found, encoded, characters encoded
		boolean whole = addedTokens.split(clean, new AddedTokens.Pieces() {

			@Override
			public boolean stretch(int start, int end) {
				String stretch = clean.substring(start, end);
				int[] known = encodeEvery ? cache.get(stretch) : cache.peek(stretch);
				if (known == null) {
					if (!encodeEvery) {
						if (counts[2] + (end - start) > uncachedBudget) {
							return false;
						}
						counts[1]++;
						counts[2] += end - start;
					}
					known = encodeNative(stretch, false);
					cache.put(stretch, known);
				}
				else if (!encodeEvery) {
					counts[0]++;
				}
				ids.add(known);
				return true;
			}

			@Override
			public void added(int id) {
				ids.add(id);
			}
		});
		cache.count(whole ? counts[0] : 0, counts[1]);
		return whole ? ids.toArray() : null;
	}

	/** What the cache of encoded stretches has done, for the gateway's metrics. */
	public CacheStatistics cacheStatistics() {
		long[] counts = cache.counts();
		return new CacheStatistics(cache.enabled(), counts[0], counts[1], cache.heldBytes());
	}

	/**
	 * The cache of encoded stretches of chats.
	 *
	 * @param enabled whether there is one
	 * @param hits stretches found in it
	 * @param misses stretches encoded
	 * @param heldBytes about how much memory it holds
	 */
	public record CacheStatistics(boolean enabled, long hits, long misses, long heldBytes) {
	}

	/** The chat template's rendering of a conversation, the text {@link #encodeChat} tokenizes. */
	public String renderChat(List<?> messages, List<?> tools, Map<String, ?> templateArguments,
			boolean addGenerationPrompt) {
		if (chatTemplate == null) {
			throw new TokenizerException("the tokenizer " + file + " has no chat template; give one with chat-template");
		}
		Map<String, Object> variables = new LinkedHashMap<>(specialTokens);
		variables.putAll(templateArguments);
		variables.put("messages", ChatMessages.asEngineSees(messages));
		if (tools != null) {
			variables.put("tools", tools);
		}
		variables.put("add_generation_prompt", addGenerationPrompt);
		try {
			return chatTemplate.render(variables);
		}
		catch (TemplateException ex) {
			throw new TokenizerException("chat template: " + ex.getMessage());
		}
	}

	/** The token ids of a completions prompt, special tokens added as the tokenizer's post-processor adds them. */
	public int[] encodePrompt(String prompt) {
		return encode(prompt, true);
	}

	/**
	 * The token ids of {@code text}. Straight through the library's native calls for the ids alone: DJL's
	 * {@code encode} also copies out every token's text, offsets and masks, a fifth of the time on an 8k-token prompt.
	 */
	public int[] encode(String text, boolean addSpecialTokens) {
		return encodeNative(Utf16.withoutLoneSurrogates(text), addSpecialTokens);
	}

	private int[] encodeNative(String text, boolean addSpecialTokens) {
		long encoding = TokenizersLibrary.LIB.encode(tokenizer.getHandle(), text, addSpecialTokens);
		long[] ids;
		try {
			ids = TokenizersLibrary.LIB.getTokenIds(encoding);
		}
		finally {
			TokenizersLibrary.LIB.deleteEncoding(encoding);
		}
		int[] tokens = new int[ids.length];
		for (int i = 0; i < ids.length; i++) {
			tokens[i] = (int) ids[i];
		}
		return tokens;
	}

	/**
	 * The tokens of {@code text} as the vocabulary writes them ({@code "Ġworld"} for " world" in a byte-level
	 * vocabulary), as vLLM's {@code /tokenize} answers {@code token_strs}.
	 */
	public String[] tokenStrings(String text, boolean addSpecialTokens) {
		long encoding = TokenizersLibrary.LIB.encode(tokenizer.getHandle(), Utf16.withoutLoneSurrogates(text),
				addSpecialTokens);
		try {
			return TokenizersLibrary.LIB.getTokens(encoding);
		}
		finally {
			TokenizersLibrary.LIB.deleteEncoding(encoding);
		}
	}

	/** The text of token ids, special tokens kept. */
	public String decode(int[] tokens) {
		long[] ids = new long[tokens.length];
		for (int i = 0; i < tokens.length; i++) {
			ids[i] = tokens[i];
		}
		try {
			return tokenizer.decode(ids, false);
		}
		catch (RuntimeException ex) {
			throw new TokenizerException("cannot decode the ids: " + firstLine(ex));
		}
	}

	@Override
	public void close() {
		tokenizer.close();
	}

	@Override
	public String toString() {
		return "ModelTokenizer[" + file + "]";
	}

	/** A growing list of ids. */
	private static final class Ids {

		private int[] ids;

		private int size;

		Ids(int capacity) {
			ids = new int[capacity];
		}

		void add(int id) {
			if (size == ids.length) {
				ids = Arrays.copyOf(ids, size * 2);
			}
			ids[size++] = id;
		}

		void add(int[] more) {
			if (size + more.length > ids.length) {
				ids = Arrays.copyOf(ids, Math.max(size * 2, size + more.length));
			}
			System.arraycopy(more, 0, ids, size, more.length);
			size += more.length;
		}

		int[] toArray() {
			return (size == ids.length) ? ids : Arrays.copyOf(ids, size);
		}
	}

	private static JsonNode readConfig(Path config) {
		if (!Files.isRegularFile(config)) {
			return JSON.createObjectNode();
		}
		try {
			JsonNode node = JSON.readTree(config.toFile());
			if (!node.isObject()) {
				throw new TokenizerException(config + " is not a JSON object");
			}
			return node;
		}
		catch (JacksonException ex) {
			throw new TokenizerException("cannot read " + config + ": " + firstLine(ex));
		}
	}

	private static ChatTemplate chatTemplate(Path chatTemplateFile, Path directory, JsonNode config) {
		String source;
		String origin;
		if (chatTemplateFile != null) {
			source = read(chatTemplateFile);
			origin = chatTemplateFile.toString();
		}
		else if (config.path("chat_template").isString()) {
			source = config.path("chat_template").asString();
			origin = directory.resolve(CONFIG_FILE) + " chat_template";
		}
		else if (config.path("chat_template").isArray()) {
			source = namedTemplate(config.path("chat_template"), "default");
			origin = directory.resolve(CONFIG_FILE) + " chat_template default";
		}
		else if (Files.isRegularFile(directory.resolve(TEMPLATE_FILE))) {
			source = read(directory.resolve(TEMPLATE_FILE));
			origin = directory.resolve(TEMPLATE_FILE).toString();
		}
		else {
			return null;
		}
		if (source == null) {
			return null;
		}
		try {
			return ChatTemplate.compile(source);
		}
		catch (TemplateException ex) {
			throw new TokenizerException("invalid chat template in " + origin + ": " + ex.getMessage());
		}
	}

	private static String namedTemplate(JsonNode templates, String name) {
		for (JsonNode template : templates) {
			if (name.equals(template.path("name").asString(null))) {
				return template.path("template").asString(null);
			}
		}
		return null;
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new TokenizerException("cannot read chat template " + file + ": " + firstLine(ex));
		}
	}

	/** The special tokens a chat template may use, as Hugging Face passes them: their text. */
	private static Map<String, Object> specialTokens(JsonNode config) {
		Map<String, Object> tokens = new LinkedHashMap<>();
		for (String name : SPECIAL_TOKEN_NAMES) {
			JsonNode value = config.path(name);
			String text = value.isString() ? value.asString() : value.path("content").asString(null);
			if (text != null) {
				tokens.put(name, text);
			}
		}
		JsonNode additional = config.path("additional_special_tokens");
		if (additional.isArray()) {
			List<String> texts = new ArrayList<>();
			for (JsonNode value : additional) {
				texts.add(value.isString() ? value.asString() : value.path("content").asString(""));
			}
			tokens.put("additional_special_tokens", texts);
		}
		return tokens;
	}

	private static String firstLine(Exception ex) {
		String message = (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
		int newline = message.indexOf('\n');
		return (newline < 0) ? message : message.substring(0, newline);
	}
}
