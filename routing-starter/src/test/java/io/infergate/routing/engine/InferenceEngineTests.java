package io.infergate.routing.engine;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.infergate.routing.limits.LimitDecision;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.Limits;
import io.infergate.routing.limits.MemoryRateLimitStore;
import io.infergate.routing.limits.RateLimitPolicy;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.limits.TenantMeters;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.model.ModelFixtures;
import io.infergate.routing.model.StickyBy;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.OpenAiRequestParser;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.pool.EngineType;
import io.infergate.routing.pool.EnginePriority;
import io.infergate.routing.pool.FailureMode;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.tokenization.PromptTextTokenizerType;
import io.infergate.routing.tokenization.TokenizerSettings;
import io.infergate.routing.tokenization.Tokenizers;

import static io.infergate.routing.model.ModelFixtures.lane;
import static io.infergate.routing.model.ModelFixtures.lanes;
import static io.infergate.routing.model.ModelFixtures.properties;
import static io.infergate.routing.model.ModelFixtures.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class InferenceEngineTests {

	private static final Caller TEAM_A = new Caller("team-a", "tenant-a", 3, 1.0);

	private final ModelCatalog catalog = ModelFixtures.catalog(properties(
			"chat", single("llama", "meta-llama/Llama-3.1-8B-Instruct", "support-lora"),
			"summarize", lanes("meta-llama/Llama-3.1-8B-Instruct", lane(100, "llama"), lane(1000, "llama-long"))),
			"llama", "llama-long");

	private final InferenceEngine engine = new InferenceEngine(catalog, null, null, null, 50);

	@Test
	void aGenerationIsResolvedToItsPoolTargetAndAdapterWithItsPromptAndAssumedMaxTokens() {
		// 40 characters of content: 10 tokens by the estimate of 4 characters a token
		Resolution resolution = engine.resolve("chat", parse(InferenceApi.CHAT_COMPLETIONS,
				"{\"model\":\"chat\",\"messages\":[{\"role\":\"user\",\"content\":\"" + "x".repeat(40) + "\"}]}"),
				InferenceApi.Work.GENERATION, TEAM_A, "s-1");

		assertThat(resolution).isInstanceOf(Resolution.Routed.class);
		InferenceRequest request = ((Resolution.Routed) resolution).request();
		assertThat(request.pool()).isEqualTo("llama");
		assertThat(request.targetModel()).isEqualTo("meta-llama/Llama-3.1-8B-Instruct");
		assertThat(request.adapter()).isEqualTo("support-lora");
		assertThat(request.promptText()).contains("x".repeat(40));
		assertThat(request.maxTokens()).isEqualTo(50);
		assertThat(request.sessionKey()).isEqualTo("s-1");
		assertThat(request.priority()).isEqualTo(3);
	}

	@Test
	void anEncodingCountsItsInputAndCarriesNoPromptAndATokenizerCallCountsNothing() {
		ParsedRequest embeddings = parse(InferenceApi.EMBEDDINGS, "{\"model\":\"chat\",\"input\":\"" + "y".repeat(80)
				+ "\"}");
		InferenceRequest encoding = ((Resolution.Routed) engine.resolve("chat", embeddings,
				InferenceApi.Work.ENCODING, TEAM_A, null)).request();
		InferenceRequest tokenizer = ((Resolution.Routed) engine.resolve("chat",
				parse(InferenceApi.TOKENIZE, "{\"model\":\"chat\",\"prompt\":\"" + "y".repeat(80) + "\"}"),
				InferenceApi.Work.TOKENIZER, TEAM_A, null)).request();

		assertThat(encoding.estimatedPromptTokens()).isEqualTo(embeddings.inputTokens()).isPositive();
		assertThat(encoding.maxTokens()).isZero();
		assertThat(encoding.promptText()).isEmpty();
		assertThat(tokenizer.estimatedTotalTokens()).isZero();
	}

	@Test
	void lanesCompareThePromptEstimatePlusMaxTokensAndARequestLargerThanEveryLaneFitsNone() {
		String small = "{\"model\":\"summarize\",\"max_tokens\":60,\"prompt\":\"" + "z".repeat(40) + "\"}";
		String large = "{\"model\":\"summarize\",\"max_tokens\":995,\"prompt\":\"" + "z".repeat(40) + "\"}";

		Resolution fits = engine.resolve("summarize", parse(InferenceApi.COMPLETIONS, small),
				InferenceApi.Work.GENERATION, TEAM_A, null);
		Resolution tooLarge = engine.resolve("summarize", parse(InferenceApi.COMPLETIONS, large),
				InferenceApi.Work.GENERATION, TEAM_A, null);

		assertThat(((Resolution.Routed) fits).route().pool()).isEqualTo("llama"); // 10 + 60 <= 100
		assertThat(tooLarge).isEqualTo(new Resolution.NoLaneFits("summarize", 1005, 1000));
	}

	@Test
	void anUnknownModelIsNamedWithCloseConfiguredNames() {
		Resolution resolution = engine.resolve("summarise", parse(InferenceApi.COMPLETIONS,
				"{\"model\":\"summarise\",\"prompt\":\"a\"}"), InferenceApi.Work.GENERATION, TEAM_A, null);

		assertThat(resolution).isEqualTo(new Resolution.UnknownModel("summarise", java.util.List.of("summarize")));
	}

	@Test
	void stickyKeysComeFromTheUserTheSessionOrTheApiKey() {
		ParsedRequest parsed = parse(InferenceApi.CHAT_COMPLETIONS,
				"{\"model\":\"m\",\"user\":\"u-1\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");

		assertThat(InferenceEngine.stickyKey(StickyBy.USER, parsed, TEAM_A, "s-9")).isEqualTo("u-1");
		assertThat(InferenceEngine.stickyKey(StickyBy.SESSION, parsed, TEAM_A, "s-9")).isEqualTo("s-9");
		assertThat(InferenceEngine.stickyKey(StickyBy.API_KEY, parsed, Caller.anonymous(), "s-9"))
			.isEqualTo(Caller.ANONYMOUS);
		assertThat(InferenceEngine.stickyKey(StickyBy.API_KEY, parsed, TEAM_A, "s-9")).isEqualTo("team-a");
		assertThat(InferenceEngine.stickyKey(StickyBy.NONE, parsed, TEAM_A, "s-9")).isNull();
	}

	@Test
	void withNoLimitAnywhereEveryRequestPassesWithoutALimitDecision() {
		InferenceRequest request = routed("chat");

		assertThat(engine.limitsActive()).isFalse();
		assertThat(engine.limit(TEAM_A, request).toCompletableFuture().join()).isNull();
	}

	@Test
	void limitsReserveTheEstimateAndRefuseOnceTheKeysRequestsPerMinuteAreUsed() {
		RateLimiter limiter = new RateLimiter(new RateLimitPolicy(
				Map.of("team-a", new RateLimitPolicy.KeyLimits("tenant-a", new Limits(2L, null, null), Map.of())),
				Map.of(), Map.of(), Limits.NONE), new MemoryRateLimitStore(Duration.ofSeconds(1)),
				new TenantMeters(new SimpleMeterRegistry()));
		InferenceEngine limited = new InferenceEngine(catalog, limiter, null, null, 50);
		InferenceRequest request = routed("chat");

		LimitDecision first = limited.limit(TEAM_A, request).toCompletableFuture().join();
		LimitDecision second = limited.limit(TEAM_A, request).toCompletableFuture().join();
		LimitDecision third = limited.limit(TEAM_A, request).toCompletableFuture().join();

		assertThat(limited.limitsActive()).isTrue();
		assertThat(first.admitted()).isTrue();
		assertThat(second.admitted()).isTrue();
		assertThat(third.admitted()).isFalse();
		assertThat(third.model()).isEqualTo("chat");
	}

	private InferenceRequest routed(String model) {
		return ((Resolution.Routed) engine.resolve(model, parse(InferenceApi.COMPLETIONS,
				"{\"model\":\"" + model + "\",\"prompt\":\"hello\"}"), InferenceApi.Work.GENERATION, TEAM_A, null))
			.request();
	}

	/**
	 * The whole prompt is counted, but a request keeps only its first {@code routing-tokens} ids for routing; the
	 * salt it sends travels with it.
	 */
	@Test
	void aRequestCountsItsWholePromptButKeepsOnlyItsFirstRoutingTokensIds() {
		PromptTextTokenizerType characters = new PromptTextTokenizerType("characters",
				(text) -> text.chars().toArray());
		PoolProperties pools = new PoolProperties(Map.of("llama", pool(16), "llama-long", pool(null)));
		Tokenizers tokenizers = Tokenizers.load(new ModelProperties(Map.of()), pools, List.of(characters));
		InferenceEngine exact = new InferenceEngine(catalog, null, null, null, 50, tokenizers);
		String content = "q".repeat(100);

		Resolution resolution = exact.resolve("chat", parse(InferenceApi.CHAT_COMPLETIONS,
				"{\"model\":\"chat\",\"cache_salt\":\"tenant-a\",\"messages\":[{\"role\":\"user\",\"content\":\""
						+ content + "\"}]}"), InferenceApi.Work.GENERATION, TEAM_A, null);

		InferenceRequest request = ((Resolution.Routed) resolution).request();
		assertThat(request.exactTokens()).isTrue();
		assertThat(request.estimatedPromptTokens()).isGreaterThan(100);
		assertThat(request.promptTokenIds()).hasSize(16);
		assertThat(request.cacheSalt()).isEqualTo("tenant-a");
		assertThat(tokenizers.routingTokens("chat", "llama")).isEqualTo(16);
		assertThat(tokenizers.routingTokens("chat", "llama-long")).isEqualTo(TokenizerSettings.DEFAULT_ROUTING_TOKENS);
		assertThat(tokenizers.all()).as("one tokenizer for settings that differ in routing-tokens only").hasSize(1);
		assertThatIllegalArgumentException().isThrownBy(() -> new TokenizerSettings(null, null, "characters", null, 15))
			.withMessage("routing-tokens: must be at least 16, got 15");
	}

	private static PoolProperties.Pool pool(Integer routingTokens) {
		return new PoolProperties.Pool(EngineType.VLLM, List.of(URI.create("http://10.0.0.1:8000")), null,
				Duration.ofSeconds(5), null, FailureMode.FAIL_CLOSE, null, null, null, null, EnginePriority.NONE,
				new TokenizerSettings(null, null, "characters", null, routingTokens));
	}

	private static ParsedRequest parse(InferenceApi api, String json) {
		try {
			return new OpenAiRequestParser().parse(json.getBytes(StandardCharsets.UTF_8), api);
		}
		catch (InvalidRequestException ex) {
			throw new IllegalArgumentException(json, ex);
		}
	}
}
