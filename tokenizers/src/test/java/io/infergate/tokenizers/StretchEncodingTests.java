package io.infergate.tokenizers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rendered chat encoded a stretch at a time, through the cache, gives the ids of the whole text encoded at once,
 * with the real Qwen3 and Llama 3.1 tokenizers, on random conversations that repeat system prompts and turns and
 * put added tokens, whitespace runs, digits, non-Latin scripts and lone surrogates in what users write.
 */
class StretchEncodingTests {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private static final String[] PIECES = { "the", " gateway", "  ", "\n", "\n\n", " \n ", "\t", "42", "3.14159",
			"çà", "日本語のテキスト", "Привет", "😀", "\ud800", "<|im_end|>", "<|im_start|>", "<|eot_id|>",
			"<|start_header_id|>", "<think>", "</think>", "<tool_call>", "<|im_end", "<", "|", "'s", "don't", " ",
			"```java\nint x = 1;\n```", "-", "!!", "é" };

	private static ModelTokenizer qwen3;

	private static ModelTokenizer llama31;

	@BeforeAll
	static void load() {
		qwen3 = ModelTokenizer.load(ModelTokenizerTests.models("tokenizer-qwen3"), null);
		llama31 = ModelTokenizer.load(ModelTokenizerTests.models("tokenizer-llama3_1"), null);
	}

	@AfterAll
	static void close() {
		qwen3.close();
		llama31.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "qwen3", "llama31" })
	void aChatEncodedAStretchAtATimeHasTheIdsOfTheWholeText(String name) {
		ModelTokenizer tokenizer = name.equals("qwen3") ? qwen3 : llama31;
		assertThat(tokenizer.cacheStatistics().enabled()).isTrue();
		SplittableRandom random = new SplittableRandom(31);
		List<String> systems = List.of(text(random, 40), text(random, 5), "You are a helpful assistant.");
		for (int conversation = 0; conversation < 60; conversation++) {
			List<Map<String, Object>> messages = new ArrayList<>();
			messages.add(Map.of("role", "system", "content", systems.get(random.nextInt(systems.size()))));
			int turns = 1 + random.nextInt(4);
			for (int turn = 0; turn < turns; turn++) {
				messages.add(Map.of("role", "user", "content", text(random, 1 + random.nextInt(30))));
				if (turn < turns - 1) {
					messages.add(Map.of("role", "assistant", "content", text(random, random.nextInt(20))));
				}
				String rendered = tokenizer.renderChat(messages, null, Map.of(), true);
				int[] whole = tokenizer.encode(rendered, false);
				assertThat(tokenizer.encodeRendered(rendered)).as(rendered).containsExactly(whole);
				assertThat(tokenizer.encodeChat(messages, null, Map.of())).as(rendered).containsExactly(whole);
			}
		}
		ModelTokenizer.CacheStatistics statistics = tokenizer.cacheStatistics();
		assertThat(statistics.hits()).as("repeated turns and system prompts are found").isGreaterThan(statistics.misses());
		assertThat(statistics.heldBytes()).isPositive();
	}

	@Test
	void textRightAfterAndBeforeAddedTokensIsEncodedAsTheLibraryEncodesIt() {
		for (String text : List.of("<|im_start|><|im_end|>", "a<|im_start|>", "<|im_start|>b", " <|im_end|> ",
				"<|im_end|><|im_end|>x", "<|im_end", "x<think>\n\ny</think>\n", "\ud800<|im_end|>\udfff")) {
			assertThat(qwen3.encodeRendered(text)).as(text).containsExactly(qwen3.encode(text, false));
			assertThat(llama31.encodeRendered(text)).as(text).containsExactly(llama31.encode(text, false));
		}
	}

	@Test
	void aChatIsEncodedWithoutTheLibraryOnlyWhenEveryStretchIsCached() {
		List<Map<String, Object>> first = List.of(Map.of("role", "system", "content", "Only cached text " + 17),
				Map.of("role", "user", "content", "A question never asked before, " + System.nanoTime()));
		assertThat(qwen3.encodeChatIfCached(first, null, Map.of())).as("nothing of it encoded yet").isNull();
		long hits = qwen3.cacheStatistics().hits();

		int[] ids = qwen3.encodeChat(first, null, Map.of());

		assertThat(qwen3.encodeChatIfCached(first, null, Map.of())).containsExactly(ids);
		assertThat(qwen3.cacheStatistics().hits() - hits).as("the second look's stretches, not the first's")
			.isGreaterThanOrEqualTo(3);
		List<Map<String, Object>> next = new ArrayList<>(first);
		next.add(Map.of("role", "assistant", "content", "An answer not yet seen " + System.nanoTime()));
		assertThat(qwen3.encodeChatIfCached(next, null, Map.of())).as("one stretch is new").isNull();
	}

	/** A new last turn within the budget is encoded there and then; more new text than the budget is left alone. */
	@Test
	void newTextWithinTheBudgetIsEncodedAndCachedAndMoreIsNot() {
		List<Map<String, Object>> history = List.of(Map.of("role", "system", "content", "Budgeted " + System.nanoTime()));
		qwen3.encodeChat(history, null, Map.of());
		List<Map<String, Object>> shortTurn = new ArrayList<>(history);
		shortTurn.add(Map.of("role", "user", "content", "Short and new " + System.nanoTime()));
		String rendered = qwen3.renderChat(shortTurn, null, Map.of(), true);
		long misses = qwen3.cacheStatistics().misses();

		assertThat(qwen3.encodeRenderedIfCheap(rendered, 0)).as("no budget: the cached text only").isNull();
		assertThat(qwen3.encodeRenderedIfCheap(rendered, 256)).containsExactly(qwen3.encode(rendered, false));
		assertThat(qwen3.cacheStatistics().misses() - misses).as("the new turn, encoded once").isEqualTo(1);
		assertThat(qwen3.encodeRenderedIfCached(rendered)).as("and cached").containsExactly(
				qwen3.encode(rendered, false));

		List<Map<String, Object>> longTurn = new ArrayList<>(history);
		longTurn.add(Map.of("role", "user", "content", "Long and new " + System.nanoTime() + " word".repeat(80)));
		String longRendered = qwen3.renderChat(longTurn, null, Map.of(), true);
		assertThat(qwen3.encodeRenderedIfCheap(longRendered, 256)).as("over 256 new characters").isNull();
		assertThat(qwen3.encodeRenderedIfCached(longRendered)).as("and nothing of it cached").isNull();
	}

	@Test
	void aTokenizerWithoutACacheEncodesTheWholeText() {
		ModelTokenizer uncached = ModelTokenizer.load(ModelTokenizerTests.models("tokenizer-qwen3"), null, 0);
		try {
			String rendered = "<|im_start|>user\nHello world<|im_end|>\n<|im_start|>assistant\n";
			assertThat(uncached.encodeRendered(rendered)).containsExactly(qwen3.encode(rendered, false));
			assertThat(uncached.cacheStatistics()).isEqualTo(new ModelTokenizer.CacheStatistics(false, 0, 0, 0));
		}
		finally {
			uncached.close();
		}
	}

	@Test
	void addedTokensThatTakeTheTextAroundThemAreNotSplitOn(@TempDir Path directory) throws IOException {
		String plain = "{\"content\": \"<s>\", \"id\": 1, \"single_word\": false, \"lstrip\": false, \"rstrip\": false, "
				+ "\"normalized\": false, \"special\": true}";
		assertThat(AddedTokens.of(JSON.readTree("[" + plain + "]"), true).splittable()).isTrue();
		assertThat(AddedTokens.of(JSON.readTree("[" + plain.replace("\"lstrip\": false", "\"lstrip\": true") + "]"),
				false).splittable()).isFalse();
		assertThat(AddedTokens.of(JSON.readTree("[" + plain.replace("\"rstrip\": false", "\"rstrip\": true") + "]"),
				false).splittable()).isFalse();
		assertThat(AddedTokens.of(JSON.readTree("[" + plain.replace("\"single_word\": false",
				"\"single_word\": true") + "]"), false).splittable()).isFalse();
		String normalized = "[" + plain.replace("\"normalized\": false", "\"normalized\": true") + "]";
		assertThat(AddedTokens.of(JSON.readTree(normalized), true).splittable())
			.as("matched after the normalizer ran").isFalse();
		assertThat(AddedTokens.of(JSON.readTree(normalized), false).splittable()).as("no normalizer").isTrue();

		Path file = directory.resolve("tokenizer.json");
		Files.writeString(file, "{\"version\": \"1.0\", \"added_tokens\": [" + plain + "], \"normalizer\": null, "
				+ "\"model\": {\"vocab\": {\"a\": 0}}}");
		AddedTokens read = AddedTokens.read(JSON, file);
		List<String> pieces = new ArrayList<>();
		read.split("a<s>b<s><s>", new AddedTokens.Pieces() {

			@Override
			public boolean stretch(int start, int end) {
				return pieces.add("a<s>b<s><s>".substring(start, end));
			}

			@Override
			public void added(int id) {
				pieces.add("#" + id);
			}
		});
		assertThat(pieces).containsExactly("a", "#1", "b", "#1", "#1");
	}

	@Test
	void theLongestAddedTokenAtAPlaceWins() throws IOException {
		AddedTokens tokens = AddedTokens.of(JSON.readTree("[{\"content\": \"<a>\", \"id\": 1}, "
				+ "{\"content\": \"<a>b\", \"id\": 2}]"), false);
		List<String> pieces = new ArrayList<>();
		tokens.split("x<a>bc<a>", new AddedTokens.Pieces() {

			@Override
			public boolean stretch(int start, int end) {
				return pieces.add("x<a>bc<a>".substring(start, end));
			}

			@Override
			public void added(int id) {
				pieces.add("#" + id);
			}
		});
		assertThat(pieces).containsExactly("x", "#2", "c", "#1");
	}

	@Test
	void theCacheEvictsTheLeastRecentlyUsedAndHoldsNoStretchOverAnEighthOfIt() {
		// 4,000 characters; an entry of 100 characters and 3 ids costs 170 with its overhead
		StretchCache cache = new StretchCache(2 * 4000);
		int[] ids = { 1, 2, 3 };
		cache.put("a".repeat(100), ids);
		cache.put("b".repeat(100), ids);
		assertThat(cache.get("a".repeat(100))).isSameAs(ids);
		for (int i = 0; i < 22; i++) {
			cache.put((char) ('A' + i) + "c".repeat(99), ids);
		}
		assertThat(cache.heldBytes()).isLessThanOrEqualTo(2 * 4000).isGreaterThan(2 * 3800);
		assertThat(cache.get("b".repeat(100))).as("the least recently used").isNull();
		assertThat(cache.get("a".repeat(100))).as("used after b").isSameAs(ids);
		cache.put("d".repeat(600), ids);
		assertThat(cache.get("d".repeat(600))).as("over an eighth").isNull();
		assertThat(new StretchCache(0).enabled()).isFalse();
	}

	private static String text(SplittableRandom random, int pieces) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < pieces; i++) {
			text.append(PIECES[random.nextInt(PIECES.length)]);
			if (random.nextInt(3) == 0) {
				text.append(' ');
			}
		}
		return text.toString();
	}
}
