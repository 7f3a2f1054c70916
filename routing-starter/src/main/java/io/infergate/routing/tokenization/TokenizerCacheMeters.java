package io.infergate.routing.tokenization;

import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.infergate.tokenizers.ModelTokenizer.CacheStatistics;

/**
 * Each tokenizer's cache of encoded text, tagged {@code tokenizer} (its file): {@value #LOOKUPS}
 * ({@code result=hit|miss}, a stretch of a rendered chat found or encoded) and {@value #BYTES} (about how much memory
 * it holds).
 */
public final class TokenizerCacheMeters implements MeterBinder {

	public static final String LOOKUPS = "infergate.tokenizer.cache.lookups";

	public static final String BYTES = "infergate.tokenizer.cache.bytes";

	private final Tokenizers tokenizers;

	public TokenizerCacheMeters(Tokenizers tokenizers) {
		this.tokenizers = tokenizers;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		for (RequestTokenizer tokenizer : tokenizers.all()) {
			CacheStatistics first = tokenizer.cacheStatistics();
			if (first == null || !first.enabled()) {
				continue;
			}
			counter(registry, tokenizer, "hit", (t) -> t.cacheStatistics().hits());
			counter(registry, tokenizer, "miss", (t) -> t.cacheStatistics().misses());
			Gauge.builder(BYTES, tokenizer, (t) -> t.cacheStatistics().heldBytes())
				.tag("tokenizer", tokenizer.describe())
				.baseUnit("bytes")
				.description("About how much memory the tokenizer's cache of encoded text holds")
				.register(registry);
		}
	}

	private static void counter(MeterRegistry registry, RequestTokenizer tokenizer, String result,
			ToDoubleFunction<RequestTokenizer> count) {
		FunctionCounter.builder(LOOKUPS, tokenizer, count)
			.tag("tokenizer", tokenizer.describe())
			.tag("result", result)
			.description("Stretches of rendered chats looked up in the tokenizer's cache: found, or encoded")
			.register(registry);
	}
}
