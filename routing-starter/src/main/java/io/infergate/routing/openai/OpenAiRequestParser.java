package io.infergate.routing.openai;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

import io.infergate.routing.pool.EnginePriority;
import io.infergate.routing.request.InferenceRequest;

/**
 * Reads the fields the gateway needs from an OpenAI or vLLM request body in one streaming pass, skipping everything
 * else without building a tree: {@code model}, {@code stream}, the output limit ({@code max_completion_tokens},
 * {@code max_tokens} or {@code max_output_tokens}), {@code user}, {@code priority}, and the input each {@link InferenceApi} carries:
 * <ul>
 * <li>chat {@code messages}, with their roles; a completion {@code prompt}; an embeddings {@code input} (strings or
 * token ids) or {@code messages}; a Responses {@code instructions} and {@code input} (a string or message items);
 * </li>
 * <li>a rerank {@code query} and {@code documents}, a score {@code text_1} and {@code text_2}, a tokenize
 * {@code prompt} or {@code messages}, a detokenize {@code tokens}.</li>
 * </ul>
 * The input becomes the prompt text ({@link PromptText}) and an estimate of its tokens: characters / 4, token ids one
 * each; a rerank or score counts the query once per document it is paired with, as the server does.
 * <p>
 * It records where the {@code model} value sits in the body, so the gateway can rewrite it without
 * re-serializing the rest. Thread-safe.
 */
public final class OpenAiRequestParser {

	private static final JsonFactory JSON = new JsonFactory();

	public ParsedRequest parse(byte[] body, InferenceApi api) throws InvalidRequestException {
		if (isUtf16Or32(body)) {
			throw InvalidRequestException.malformed("The request body must be JSON in UTF-8; it looks like UTF-16 or "
					+ "UTF-32.");
		}
		try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), body)) {
			return parseObject(parser, body, api);
		}
		catch (JacksonException ex) {
			// Limits of the parser (nesting depth, number and name lengths) are reported without a location.
			TokenStreamLocation location = ex.getLocation();
			throw InvalidRequestException.malformed("The request body is not valid JSON: " + ex.getOriginalMessage()
					+ ((location != null) ? " (line " + location.getLineNr() + ", column " + location.getColumnNr()
							+ ")" : ""));
		}
	}

	/**
	 * Whether the body starts as JSON in UTF-16 or UTF-32 would: a byte-order mark, or a zero byte among the first
	 * four (RFC 4627 section 3; JSON's first character is ASCII, which those encodings pad with zeros). The parser
	 * would read it, but the gateway splices the body by byte offset and model servers expect UTF-8 (RFC 8259).
	 */
	static boolean isUtf16Or32(byte[] body) {
		if (body.length >= 2 && ((body[0] == (byte) 0xFE && body[1] == (byte) 0xFF)
				|| (body[0] == (byte) 0xFF && body[1] == (byte) 0xFE))) {
			return true;
		}
		for (int i = 0; i < Math.min(4, body.length); i++) {
			if (body[i] == 0) {
				return true;
			}
		}
		return false;
	}

	private ParsedRequest parseObject(JsonParser parser, byte[] body, InferenceApi api) throws InvalidRequestException {
		if (parser.nextToken() != JsonToken.START_OBJECT) {
			throw InvalidRequestException.malformed("The request body must be a JSON object.");
		}
		String model = null;
		int modelStart = -1;
		int modelEnd = -1;
		boolean stream = false;
		Integer maxTokens = null;
		Integer maxCompletionTokens = null;
		String user = null;
		Integer priority = null;
		String cacheSalt = null;
		StreamOptions streamOptions = StreamOptions.ABSENT;
		Input input = new Input();
		JsonToken token;
		while ((token = parser.nextToken()) == JsonToken.PROPERTY_NAME) {
			String name = parser.currentName();
			JsonToken value = parser.nextToken();
			switch (name) {
				case "model" -> {
					if (model != null) {
						throw InvalidRequestException.field("model", "The request has more than one 'model'.");
					}
					if (value != JsonToken.VALUE_STRING) {
						throw InvalidRequestException.field("model", "'model' must be a string.");
					}
					modelStart = (int) parser.currentTokenLocation().getByteOffset();
					model = parser.getString();
					modelEnd = endOfString(body, modelStart);
				}
				case "stream" -> stream = readBoolean(parser, value, name);
				case "max_tokens" -> maxTokens = readPositiveInt(parser, value, name);
				case "max_completion_tokens", "max_output_tokens" -> maxCompletionTokens = readPositiveInt(parser, value,
						name);
				case "user" -> user = readOptionalString(parser, value, name);
				case "priority" -> priority = readPriority(parser, value);
				case "cache_salt" -> cacheSalt = readCacheSalt(parser, value);
				case "stream_options" -> streamOptions = readStreamOptions(parser, value);
				default -> readInput(parser, value, name, api, input);
			}
		}
		if (token != JsonToken.END_OBJECT) {
			throw InvalidRequestException.malformed("The request body is not a complete JSON object.");
		}
		if (parser.nextToken() != null) {
			throw InvalidRequestException.malformed("The request body has content after the JSON object.");
		}
		if (model == null || model.isEmpty()) {
			throw InvalidRequestException.field("model", "The request must name a 'model'.");
		}
		String missing = input.missingField(api);
		if (missing != null) {
			throw InvalidRequestException.field(missing, "The request must have '" + missing + "'.");
		}
		Integer limit = (maxCompletionTokens != null) ? maxCompletionTokens : maxTokens;
		return new ParsedRequest(model, modelStart, modelEnd, stream, limit, input.promptText(), input.tokens(), user,
				streamOptions, priority, new PromptSource(body, api), cacheSalt);
	}

	/** Reads {@code name} into the input when it is one of the API's input fields, else skips it. */
	private static void readInput(JsonParser parser, JsonToken value, String name, InferenceApi api, Input input)
			throws InvalidRequestException {
		switch (api) {
			case CHAT_COMPLETIONS -> {
				if ("messages".equals(name)) {
					input.main = readMessages(parser, value, name);
					return;
				}
			}
			case COMPLETIONS -> {
				if ("prompt".equals(name)) {
					input.main = readPrompt(parser, value, name);
					return;
				}
			}
			case EMBEDDINGS, TOKENIZE -> {
				if (api.inputFields().contains(name)) {
					if (input.main != null) {
						throw InvalidRequestException.field(name, "The request must have only one of "
								+ api.inputFields() + ".");
					}
					input.main = "messages".equals(name) ? readMessages(parser, value, name)
							: readPrompt(parser, value, name);
					return;
				}
			}
			case RESPONSES -> {
				if ("input".equals(name)) {
					input.main = readResponsesInput(parser, value);
					return;
				}
				if ("instructions".equals(name)) {
					String instructions = readOptionalString(parser, value, name);
					if (instructions != null) {
						input.instructions = instructions;
					}
					return;
				}
			}
			case RERANK, SCORE -> {
				if (name.equals(pairedFields(api)[0])) {
					input.main = readTexts(parser, value, name);
					return;
				}
				if (name.equals(pairedFields(api)[1])) {
					input.paired = readTexts(parser, value, name);
					return;
				}
			}
			case DETOKENIZE -> {
				if ("tokens".equals(name)) {
					input.main = readTokenIds(parser, value, name);
					return;
				}
			}
		}
		parser.skipChildren();
	}

	/** The two fields a rerank or score request pairs: the first is repeated against each of the second. */
	private static String[] pairedFields(InferenceApi api) {
		return (api == InferenceApi.RERANK) ? RERANK_FIELDS : SCORE_FIELDS;
	}

	private static final String[] RERANK_FIELDS = { "query", "documents" };

	private static final String[] SCORE_FIELDS = { "text_1", "text_2" };

	private static Prompt readMessages(JsonParser parser, JsonToken value, String field)
			throws InvalidRequestException {
		if (value != JsonToken.START_ARRAY) {
			throw InvalidRequestException.field(field, "'" + field + "' must be an array of messages.");
		}
		Prompt prompt = new Prompt();
		int count = 0;
		JsonToken token;
		while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
			if (token != JsonToken.START_OBJECT) {
				throw InvalidRequestException.field(field, "Each message must be an object.");
			}
			readMessage(parser, prompt, field + "[" + count + "]");
			count++;
		}
		if (count == 0) {
			throw InvalidRequestException.field(field, "'" + field + "' must not be empty.");
		}
		return prompt;
	}

	private static void readMessage(JsonParser parser, Prompt prompt, String at) throws InvalidRequestException {
		String role = null;
		StringBuilder content = new StringBuilder();
		while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
			String name = parser.currentName();
			JsonToken value = parser.nextToken();
			if ("role".equals(name)) {
				if (value != JsonToken.VALUE_STRING) {
					throw InvalidRequestException.field(at + ".role", "'role' must be a string.");
				}
				role = parser.getString();
			}
			else if ("content".equals(name)) {
				readContent(parser, value, content, at);
			}
			else {
				parser.skipChildren();
			}
		}
		if (role == null) {
			throw InvalidRequestException.field(at + ".role", "Each message must have a 'role'.");
		}
		PromptText.appendMessage(prompt.text, role, content);
	}

	/** Content is a string, null, or an array of parts of which the {@code text} ones count. */
	private static void readContent(JsonParser parser, JsonToken value, StringBuilder content, String at)
			throws InvalidRequestException {
		if (value == JsonToken.VALUE_STRING) {
			content.append(parser.getString());
		}
		else if (value == JsonToken.START_ARRAY) {
			JsonToken part;
			while ((part = parser.nextToken()) != JsonToken.END_ARRAY) {
				if (part != JsonToken.START_OBJECT) {
					throw InvalidRequestException.field(at + ".content", "Each content part must be an object.");
				}
				while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
					String name = parser.currentName();
					JsonToken partValue = parser.nextToken();
					if ("text".equals(name) && partValue == JsonToken.VALUE_STRING) {
						content.append(parser.getString());
					}
					else {
						parser.skipChildren();
					}
				}
			}
		}
		else if (value != JsonToken.VALUE_NULL) {
			throw InvalidRequestException.field(at + ".content",
					"'content' must be a string, an array of parts, or null.");
		}
	}

	/**
	 * A Responses {@code input}: a string (one user message), or an array of items. Items with a {@code role} are
	 * messages (content a string or parts with {@code text}); a {@code function_call_output} counts as a
	 * {@code tool} message of its {@code output}; other items (tool calls, reasoning) carry no prompt text.
	 */
	private static Prompt readResponsesInput(JsonParser parser, JsonToken value) throws InvalidRequestException {
		Prompt prompt = new Prompt();
		if (value == JsonToken.VALUE_STRING) {
			PromptText.appendMessage(prompt.text, "user", parser.getString());
			return prompt;
		}
		if (value != JsonToken.START_ARRAY) {
			throw InvalidRequestException.field("input", "'input' must be a string or an array of items.");
		}
		int count = 0;
		JsonToken token;
		while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
			String at = "input[" + count++ + "]";
			if (token != JsonToken.START_OBJECT) {
				throw InvalidRequestException.field(at, "Each input item must be an object.");
			}
			String role = null;
			String type = null;
			StringBuilder content = new StringBuilder();
			while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
				String name = parser.currentName();
				JsonToken itemValue = parser.nextToken();
				switch (name) {
					case "role" -> role = readOptionalString(parser, itemValue, at + ".role");
					case "type" -> type = readOptionalString(parser, itemValue, at + ".type");
					case "content" -> readContent(parser, itemValue, content, at);
					case "output" -> {
						if (itemValue == JsonToken.VALUE_STRING) {
							content.append(parser.getString());
						}
						else {
							parser.skipChildren();
						}
					}
					default -> parser.skipChildren();
				}
			}
			if (role != null) {
				PromptText.appendMessage(prompt.text, role, content);
			}
			else if ("function_call_output".equals(type)) {
				PromptText.appendMessage(prompt.text, "tool", content);
			}
		}
		if (count == 0) {
			throw InvalidRequestException.field("input", "'input' must not be empty.");
		}
		return prompt;
	}

	/** A prompt is a string, an array of strings, an array of token ids, or an array of such arrays. */
	private static Prompt readPrompt(JsonParser parser, JsonToken value, String field) throws InvalidRequestException {
		Prompt prompt = new Prompt();
		if (value == JsonToken.VALUE_STRING) {
			prompt.appendText(parser.getString());
			return prompt;
		}
		if (value != JsonToken.START_ARRAY) {
			throw InvalidRequestException.field(field, "'" + field + "' must be a string or an array.");
		}
		int count = 0;
		JsonToken token;
		while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
			readPromptElement(parser, token, prompt, true, field);
			count++;
		}
		if (count == 0) {
			throw InvalidRequestException.field(field, "'" + field + "' must not be empty.");
		}
		return prompt;
	}

	private static void readPromptElement(JsonParser parser, JsonToken token, Prompt prompt, boolean nestingAllowed,
			String field) throws InvalidRequestException {
		if (token == JsonToken.VALUE_STRING) {
			prompt.appendText(parser.getString());
		}
		else if (token == JsonToken.VALUE_NUMBER_INT) {
			prompt.appendTokenId(parser.getString());
		}
		else if (token == JsonToken.START_ARRAY && nestingAllowed) {
			JsonToken inner;
			while ((inner = parser.nextToken()) != JsonToken.END_ARRAY) {
				readPromptElement(parser, inner, prompt, false, field);
			}
		}
		else {
			throw InvalidRequestException.field(field,
					"'" + field + "' must hold strings, token ids, or arrays of token ids.");
		}
	}

	private static StreamOptions readStreamOptions(JsonParser parser, JsonToken value) throws InvalidRequestException {
		if (value == JsonToken.VALUE_NULL) {
			return StreamOptions.NULL;
		}
		if (value != JsonToken.START_OBJECT) {
			throw InvalidRequestException.field("stream_options", "'stream_options' must be an object.");
		}
		boolean includeUsage = false;
		while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
			String name = parser.currentName();
			JsonToken option = parser.nextToken();
			if ("include_usage".equals(name)) {
				includeUsage = readBoolean(parser, option, "stream_options.include_usage");
			}
			else {
				parser.skipChildren();
			}
		}
		return includeUsage ? StreamOptions.INCLUDE_USAGE : StreamOptions.WITHOUT_USAGE;
	}

	/**
	 * A rerank or score text field: a string, an array of strings, or (vLLM's multimodal form) an object, whose
	 * content carries no text the gateway counts.
	 */
	private static Prompt readTexts(JsonParser parser, JsonToken value, String field) throws InvalidRequestException {
		Prompt prompt = new Prompt();
		if (value == JsonToken.VALUE_STRING) {
			prompt.appendText(parser.getString());
		}
		else if (value == JsonToken.START_ARRAY) {
			JsonToken token;
			while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
				if (token == JsonToken.VALUE_STRING) {
					prompt.appendText(parser.getString());
				}
				else if (token == JsonToken.START_OBJECT) {
					parser.skipChildren();
					prompt.texts++;
				}
				else {
					throw InvalidRequestException.field(field, "'" + field + "' must hold strings.");
				}
			}
		}
		else if (value == JsonToken.START_OBJECT) {
			parser.skipChildren();
			prompt.texts++;
		}
		else {
			throw InvalidRequestException.field(field, "'" + field + "' must be a string or an array of strings.");
		}
		return prompt;
	}

	private static Prompt readTokenIds(JsonParser parser, JsonToken value, String field)
			throws InvalidRequestException {
		if (value != JsonToken.START_ARRAY) {
			throw InvalidRequestException.field(field, "'" + field + "' must be an array of token ids.");
		}
		Prompt prompt = new Prompt();
		JsonToken token;
		while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
			if (token != JsonToken.VALUE_NUMBER_INT) {
				throw InvalidRequestException.field(field, "'" + field + "' must be an array of token ids.");
			}
			prompt.appendTokenId(parser.getString());
		}
		return prompt;
	}

	private static boolean readBoolean(JsonParser parser, JsonToken value, String name) throws InvalidRequestException {
		if (value == JsonToken.VALUE_TRUE) {
			return true;
		}
		if (value == JsonToken.VALUE_FALSE || value == JsonToken.VALUE_NULL) {
			return false;
		}
		throw InvalidRequestException.field(name, "'" + name + "' must be a boolean.");
	}

	/** A {@code priority}: an integer within ±{@value EnginePriority#MAX_PRIORITY}, or {@code null}. */
	private static Integer readPriority(JsonParser parser, JsonToken value) throws InvalidRequestException {
		if (value == JsonToken.VALUE_NULL) {
			return null;
		}
		if (value != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() != JsonParser.NumberType.INT
				|| parser.getIntValue() < -EnginePriority.MAX_PRIORITY
				|| parser.getIntValue() > EnginePriority.MAX_PRIORITY) {
			throw InvalidRequestException.field("priority", "'priority' must be an integer from -"
					+ EnginePriority.MAX_PRIORITY + " to " + EnginePriority.MAX_PRIORITY + ".");
		}
		return parser.getIntValue();
	}

	/** {@code cache_salt}: null, or a non-empty string, as vLLM accepts it. */
	private static String readCacheSalt(JsonParser parser, JsonToken value) throws InvalidRequestException {
		String salt = readOptionalString(parser, value, "cache_salt");
		if (salt != null && salt.isEmpty()) {
			throw InvalidRequestException.field("cache_salt", "'cache_salt' must be a non-empty string if given.");
		}
		return salt;
	}

	private static Integer readPositiveInt(JsonParser parser, JsonToken value, String name)
			throws InvalidRequestException {
		if (value == JsonToken.VALUE_NULL) {
			return null;
		}
		if (value != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() != JsonParser.NumberType.INT
				|| parser.getIntValue() < 1) {
			throw InvalidRequestException.field(name, "'" + name + "' must be an integer of at least 1.");
		}
		return parser.getIntValue();
	}

	private static String readOptionalString(JsonParser parser, JsonToken value, String name)
			throws InvalidRequestException {
		if (value == JsonToken.VALUE_NULL) {
			return null;
		}
		if (value != JsonToken.VALUE_STRING) {
			throw InvalidRequestException.field(name, "'" + name + "' must be a string.");
		}
		return parser.getString();
	}

	/** The offset just past the closing quote of the JSON string whose opening quote is at {@code openQuote}. */
	static int endOfString(byte[] body, int openQuote) {
		for (int i = openQuote + 1; i < body.length; i++) {
			byte b = body[i];
			if (b == '\\') {
				i++;
			}
			else if (b == '"') {
				return i + 1;
			}
		}
		throw new IllegalStateException("unterminated string at " + openQuote);
	}

	/** One input field: its text, and how many token ids and separate texts it held. */
	private static final class Prompt {

		final StringBuilder text = new StringBuilder();

		/** Characters of {@link #text} that spell token ids or separate texts: hashed, but not counted as text. */
		int uncountedChars;

		int tokenIds;

		int texts;

		void appendText(String value) {
			if (text.length() > 0) {
				text.append(PromptText.MESSAGE_SEPARATOR);
				uncountedChars++;
			}
			text.append(value);
			texts++;
		}

		/** A token id is hashed as its digits and counts as one token. */
		void appendTokenId(String digits) {
			text.append(digits).append(' ');
			uncountedChars += digits.length() + 1;
			tokenIds++;
		}

		long textChars() {
			return text.length() - uncountedChars;
		}
	}

	/** Every input field of one request. */
	private static final class Input {

		Prompt main;

		/** A rerank's documents, a score's {@code text_2}. */
		Prompt paired;

		/** A Responses request's {@code instructions}. */
		String instructions;

		/** The first input field the API requires that the request lacks, or {@code null}. */
		String missingField(InferenceApi api) {
			if (main == null) {
				return (api == InferenceApi.RERANK || api == InferenceApi.SCORE) ? pairedFields(api)[0]
						: api.promptField();
			}
			if (paired == null && (api == InferenceApi.RERANK || api == InferenceApi.SCORE)) {
				return pairedFields(api)[1];
			}
			return null;
		}

		String promptText() {
			if (instructions == null && paired == null) {
				return main.text.toString();
			}
			StringBuilder text = new StringBuilder();
			if (instructions != null) {
				PromptText.appendMessage(text, "system", instructions);
			}
			text.append(main.text);
			if (paired != null) {
				text.append(PromptText.MESSAGE_SEPARATOR).append(paired.text);
			}
			return text.toString();
		}

		/**
		 * Characters / 4 plus token ids. A paired request runs the first field against each text of the second (one
		 * query against every document; one {@code text_1} against every {@code text_2}), or zips them when both hold
		 * several.
		 */
		int tokens() {
			long chars = main.textChars() + ((instructions != null) ? instructions.length() : 0);
			if (paired != null) {
				long pairs = (main.texts <= 1) ? Math.max(1, paired.texts) : 1;
				chars = main.textChars() * pairs + paired.textChars();
			}
			long tokens = (chars + InferenceRequest.CHARS_PER_TOKEN - 1) / InferenceRequest.CHARS_PER_TOKEN
					+ main.tokenIds;
			return (int) Math.min(Integer.MAX_VALUE, tokens);
		}
	}
}
