package io.infergate.routing.openai;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads the fields the gateway needs from an OpenAI request body in one streaming pass, skipping everything
 * else without building a tree: {@code model}, {@code stream}, {@code max_tokens}/{@code max_completion_tokens},
 * {@code user}, and the prompt ({@code messages} with their roles, or {@code prompt}).
 * <p>
 * It records where the {@code model} value sits in the body, so the gateway can rewrite it without
 * re-serializing the rest. Thread-safe.
 */
public final class OpenAiRequestParser {

	private static final JsonFactory JSON = new JsonFactory();

	public ParsedRequest parse(byte[] body, InferenceApi api) throws InvalidRequestException {
		try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), body)) {
			return parseObject(parser, body, api);
		}
		catch (JacksonException ex) {
			throw InvalidRequestException.malformed("The request body is not valid JSON: " + ex.getOriginalMessage()
					+ " (line " + ex.getLocation().getLineNr() + ", column " + ex.getLocation().getColumnNr() + ")");
		}
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
		StreamOptions streamOptions = StreamOptions.ABSENT;
		Prompt prompt = null;
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
				case "max_completion_tokens" -> maxCompletionTokens = readPositiveInt(parser, value, name);
				case "user" -> user = readOptionalString(parser, value, name);
				case "stream_options" -> streamOptions = readStreamOptions(parser, value);
				default -> {
					if (name.equals(api.promptField())) {
						prompt = (api == InferenceApi.CHAT_COMPLETIONS) ? readMessages(parser, value) : readPrompt(parser, value);
					}
					else {
						parser.skipChildren();
					}
				}
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
		if (prompt == null) {
			throw InvalidRequestException.field(api.promptField(), "The request must have '" + api.promptField() + "'.");
		}
		Integer limit = (maxCompletionTokens != null) ? maxCompletionTokens : maxTokens;
		return new ParsedRequest(model, modelStart, modelEnd, stream, limit, prompt.text.toString(), prompt.tokenIds,
				user, streamOptions);
	}

	private static Prompt readMessages(JsonParser parser, JsonToken value) throws InvalidRequestException {
		if (value != JsonToken.START_ARRAY) {
			throw InvalidRequestException.field("messages", "'messages' must be an array of messages.");
		}
		Prompt prompt = new Prompt();
		int count = 0;
		JsonToken token;
		while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
			if (token != JsonToken.START_OBJECT) {
				throw InvalidRequestException.field("messages", "Each message must be an object.");
			}
			readMessage(parser, prompt, count);
			count++;
		}
		if (count == 0) {
			throw InvalidRequestException.field("messages", "'messages' must not be empty.");
		}
		return prompt;
	}

	private static void readMessage(JsonParser parser, Prompt prompt, int index) throws InvalidRequestException {
		String role = null;
		StringBuilder content = new StringBuilder();
		while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
			String name = parser.currentName();
			JsonToken value = parser.nextToken();
			if ("role".equals(name)) {
				if (value != JsonToken.VALUE_STRING) {
					throw InvalidRequestException.field("messages[" + index + "].role", "'role' must be a string.");
				}
				role = parser.getString();
			}
			else if ("content".equals(name)) {
				readContent(parser, value, content, index);
			}
			else {
				parser.skipChildren();
			}
		}
		if (role == null) {
			throw InvalidRequestException.field("messages[" + index + "].role", "Each message must have a 'role'.");
		}
		PromptText.appendMessage(prompt.text, role, content);
	}

	/** Content is a string, null, or an array of parts of which the {@code text} ones count. */
	private static void readContent(JsonParser parser, JsonToken value, StringBuilder content, int index)
			throws InvalidRequestException {
		if (value == JsonToken.VALUE_STRING) {
			content.append(parser.getString());
		}
		else if (value == JsonToken.START_ARRAY) {
			JsonToken part;
			while ((part = parser.nextToken()) != JsonToken.END_ARRAY) {
				if (part != JsonToken.START_OBJECT) {
					throw InvalidRequestException.field("messages[" + index + "].content",
							"Each content part must be an object.");
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
			throw InvalidRequestException.field("messages[" + index + "].content",
					"'content' must be a string, an array of parts, or null.");
		}
	}

	/** A prompt is a string, an array of strings, an array of token ids, or an array of such arrays. */
	private static Prompt readPrompt(JsonParser parser, JsonToken value) throws InvalidRequestException {
		Prompt prompt = new Prompt();
		if (value == JsonToken.VALUE_STRING) {
			prompt.text.append(parser.getString());
			return prompt;
		}
		if (value != JsonToken.START_ARRAY) {
			throw InvalidRequestException.field("prompt", "'prompt' must be a string or an array.");
		}
		int count = 0;
		JsonToken token;
		while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
			readPromptElement(parser, token, prompt, true);
			count++;
		}
		if (count == 0) {
			throw InvalidRequestException.field("prompt", "'prompt' must not be empty.");
		}
		return prompt;
	}

	private static void readPromptElement(JsonParser parser, JsonToken token, Prompt prompt, boolean nestingAllowed)
			throws InvalidRequestException {
		if (token == JsonToken.VALUE_STRING) {
			if (prompt.text.length() > 0) {
				prompt.text.append(PromptText.MESSAGE_SEPARATOR);
			}
			prompt.text.append(parser.getString());
		}
		else if (token == JsonToken.VALUE_NUMBER_INT) {
			// token ids: hash their text, count one token each
			prompt.text.append(parser.getString()).append(' ');
			prompt.tokenIds++;
		}
		else if (token == JsonToken.START_ARRAY && nestingAllowed) {
			JsonToken inner;
			while ((inner = parser.nextToken()) != JsonToken.END_ARRAY) {
				readPromptElement(parser, inner, prompt, false);
			}
		}
		else {
			throw InvalidRequestException.field("prompt",
					"'prompt' must hold strings, token ids, or arrays of token ids.");
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

	private static boolean readBoolean(JsonParser parser, JsonToken value, String name) throws InvalidRequestException {
		if (value == JsonToken.VALUE_TRUE) {
			return true;
		}
		if (value == JsonToken.VALUE_FALSE || value == JsonToken.VALUE_NULL) {
			return false;
		}
		throw InvalidRequestException.field(name, "'" + name + "' must be a boolean.");
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

	private static final class Prompt {

		final StringBuilder text = new StringBuilder();

		int tokenIds;
	}
}
