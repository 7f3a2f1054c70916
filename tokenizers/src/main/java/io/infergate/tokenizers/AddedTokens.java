package io.infergate.tokenizers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * A {@code tokenizer.json}'s added tokens ({@code <|im_start|>}, {@code <|eot_id|>}, …), found in a text the way the
 * Rust {@code tokenizers} library finds them before anything else runs: leftmost, longest first, in the text as it
 * is. The library then normalizes, pre-tokenizes and encodes each stretch between two of them on its own, so
 * encoding the stretches one by one and putting the added tokens' ids between them gives the same ids as encoding
 * the whole text; {@link ModelTokenizer} relies on that to cache stretches.
 * <p>
 * That holds only for tokens matched in the raw text and taking nothing around them: a tokenizer with an added token
 * that is {@code single_word}, {@code lstrip}, {@code rstrip}, or {@code normalized} under a normalizer is
 * {@linkplain #splittable() not split here}.
 */
final class AddedTokens {

	private static final AddedTokens NONE = new AddedTokens(new String[0], new int[0], false);

	/** Contents, longest first. */
	private final String[] contents;

	private final int[] ids;

	private final boolean splittable;

	/** Whether some added token starts with this character (a char's bit in a 64 Ki-bit set). */
	private final long[] firstChars = new long[1024];

	private AddedTokens(String[] contents, int[] ids, boolean splittable) {
		this.contents = contents;
		this.ids = ids;
		this.splittable = splittable && contents.length > 0;
		for (String content : contents) {
			char first = content.charAt(0);
			firstChars[first >>> 6] |= 1L << first;
		}
	}

	/**
	 * Reads the added tokens of {@code file}, skipping the rest of it (the vocabulary and merges) as it streams past.
	 *
	 * @throws TokenizerException when the file is not JSON
	 */
	static AddedTokens read(ObjectMapper json, Path file) {
		JsonNode added = null;
		boolean normalizer = false;
		try (JsonParser parser = json.createParser(file.toFile())) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				return NONE;
			}
			while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
				String name = parser.currentName();
				parser.nextToken();
				if ("added_tokens".equals(name)) {
					added = parser.readValueAsTree();
				}
				else if ("normalizer".equals(name)) {
					normalizer = parser.currentToken() != JsonToken.VALUE_NULL;
					parser.skipChildren();
				}
				else {
					parser.skipChildren();
				}
			}
		}
		catch (JacksonException ex) {
			throw new TokenizerException("cannot read " + file + ": " + ex.getOriginalMessage());
		}
		return of(added, normalizer);
	}

	static AddedTokens of(JsonNode added, boolean normalizer) {
		if (added == null || !added.isArray()) {
			return NONE;
		}
		record Token(String content, int id) {
		}
		List<Token> tokens = new ArrayList<>();
		boolean splittable = true;
		for (JsonNode token : added) {
			String content = token.path("content").asString("");
			if (content.isEmpty() || !token.path("id").canConvertToInt()) {
				splittable = false;
				continue;
			}
			splittable &= !token.path("single_word").asBoolean(false) && !token.path("lstrip").asBoolean(false)
					&& !token.path("rstrip").asBoolean(false)
					&& !(normalizer && token.path("normalized").asBoolean(!token.path("special").asBoolean(false)));
			tokens.add(new Token(content, token.path("id").asInt()));
		}
		tokens.sort(Comparator.comparingInt((Token token) -> token.content().length()).reversed());
		return new AddedTokens(tokens.stream().map(Token::content).toArray(String[]::new),
				tokens.stream().mapToInt(Token::id).toArray(), splittable);
	}

	/** Whether texts may be encoded a stretch at a time (see the class's comment). */
	boolean splittable() {
		return splittable;
	}

	/** Receives a text's pieces in order. */
	interface Pieces {

		/** Characters [start, end) of the text, holding no added token; never empty. False stops the split. */
		boolean stretch(int start, int end);

		/** An added token. */
		void added(int id);
	}

	/** Splits {@code text} at its added tokens; false when {@code pieces} stopped it. */
	boolean split(String text, Pieces pieces) {
		int length = text.length();
		int stretch = 0;
		int at = 0;
		while (at < length) {
			char c = text.charAt(at);
			int match = ((firstChars[c >>> 6] & (1L << c)) != 0) ? longestAt(text, at) : -1;
			if (match < 0) {
				at++;
				continue;
			}
			if (at > stretch && !pieces.stretch(stretch, at)) {
				return false;
			}
			pieces.added(ids[match]);
			at += contents[match].length();
			stretch = at;
		}
		return length <= stretch || pieces.stretch(stretch, length);
	}

	/** The index of the longest added token starting at {@code at}, or -1. */
	private int longestAt(String text, int at) {
		for (int i = 0; i < contents.length; i++) {
			if (text.startsWith(contents[i], at)) {
				return i;
			}
		}
		return -1;
	}

	@Override
	public String toString() {
		return "AddedTokens" + Arrays.toString(contents);
	}
}
