package io.infergate.gateway.route;

import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.model.ModelFixtures;
import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.model.StickyBy;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.request.InferenceRequest;

import static io.infergate.gateway.route.FilterExchanges.chat;
import static io.infergate.gateway.route.FilterExchanges.requestBody;
import static io.infergate.gateway.route.FilterExchanges.responseBody;
import static io.infergate.routing.model.ModelFixtures.lane;
import static io.infergate.routing.model.ModelFixtures.lanes;
import static io.infergate.routing.model.ModelFixtures.single;
import static io.infergate.routing.model.ModelFixtures.withFallbacks;
import static org.assertj.core.api.Assertions.assertThat;

class ResolveModelFilterTests {

	private static final int ASSUMED_MAX_TOKENS = 256;

	private final ModelCatalog catalog = catalog();

	private final ResolveModelFilter filter = new ResolveModelFilter(new InferenceEngine(catalog, null, null, null, ASSUMED_MAX_TOKENS));

	private final ReadRequestFilter reader = new ReadRequestFilter(1 << 20);

	private final FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

	@Test
	void rewritesTheModelToTheAdapterAndDescribesTheRequestForTheScheduler() {
		MockServerWebExchange exchange = read("{\"model\":\"support-bot\",\"user\":\"u-1\",\"max_tokens\":32,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}");

		filter.filter(exchange, chain).block();

		assertThat(requestBody(chain.reached())).startsWith("{\"model\":\"support-lora\",");
		assertThat(InferenceContext.find(chain.reached()).route()).isEqualTo(
				new ModelRoute("support-bot", "llama", "meta-llama/Llama-3.1-8B-Instruct", "support-lora"));
		InferenceRequest request = InferenceContext.find(chain.reached()).request();
		assertThat(request.requestedModel()).isEqualTo("support-bot");
		assertThat(request.pool()).isEqualTo("llama");
		assertThat(request.adapter()).isEqualTo("support-lora");
		assertThat(request.maxTokens()).isEqualTo(32);
		assertThat(request.sessionKey()).isEqualTo("u-1");
		assertThat(request.promptText()).isEqualTo("\u001euser\u001fhello");
		// 4 characters a token, rounded up: "\u001euser\u001fhello" is 1 + 4 + 1 + 5 = 11 characters, 3 tokens
		assertThat(request.estimatedPromptTokens()).isEqualTo(3);
	}

	@Test
	void prefersTheSessionHeaderToTheUserFieldAndAssumesMaxTokensWhenAbsent() {
		MockServerWebExchange exchange = FilterExchanges.onInferenceRoute(
				MockServerHttpRequest.post("/v1/chat/completions")
					.header(ResolveModelFilter.SESSION_HEADER, "conversation-7")
					.body("{\"model\":\"gpt-4o-mini\",\"user\":\"u-1\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"));
		reader.filter(exchange, (e) -> filter.filter(e, chain)).block();

		InferenceRequest request = InferenceContext.find(chain.reached()).request();
		assertThat(request.sessionKey()).isEqualTo("conversation-7");
		assertThat(request.maxTokens()).isEqualTo(ASSUMED_MAX_TOKENS);
		assertThat(requestBody(chain.reached())).startsWith("{\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",");
	}

	@Test
	void answersAnUnknownModelWith404SuggestingCloseNames() {
		MockServerWebExchange exchange = read("{\"model\":\"gpt-4o-mni\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");

		filter.filter(exchange, chain).block();

		assertThat(chain.wasCalled()).isFalse();
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
		assertThat(responseBody(exchange)).contains("\"code\":\"model_not_found\"")
			.contains("Did you mean `gpt-4o-mini`?");
	}

	@Test
	void resolvesTheFallbackBeingTriedRatherThanTheRequestedModel() {
		MockServerWebExchange exchange = read("{\"model\":\"chat\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
		ModelFallbacks fallbacks = new ModelFallbacks(catalog.attemptOrder("chat"));
		fallbacks.next();
		InferenceContext.find(exchange).fallbacks(fallbacks);

		filter.filter(exchange, chain).block();

		InferenceRequest request = InferenceContext.find(chain.reached()).request();
		assertThat(request.requestedModel()).isEqualTo("gpt-4o-mini");
		assertThat(requestBody(chain.reached())).startsWith("{\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",");
	}

	@Test
	void picksTheLaneByEstimatedPromptTokensPlusMaxTokens() {
		// 4 characters a token: "\u001euser\u001f" and 394 x's are 100 tokens; 100 + 100 fits the 200-token lane
		String prompt = "x".repeat(394);
		MockServerWebExchange fits = read("{\"model\":\"summarize\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\","
				+ "\"content\":\"" + prompt + "\"}]}");
		MockServerWebExchange overflows = read("{\"model\":\"summarize\",\"max_tokens\":101,\"messages\":[{\"role\":"
				+ "\"user\",\"content\":\"" + prompt + "\"}]}");

		filter.filter(fits, chain).block();
		String shortLane = InferenceContext.find(chain.reached()).route().pool();
		filter.filter(overflows, chain).block();
		String longLane = InferenceContext.find(chain.reached()).route().pool();

		assertThat(shortLane).isEqualTo("llama");
		assertThat(longLane).isEqualTo("llama-long");
	}

	@Test
	void answers400WhenNoLaneTakesTheRequestAndNoFallbackIsLeft() {
		MockServerWebExchange exchange = read("{\"model\":\"bounded\",\"max_tokens\":5000,\"prompt\":\"x\"}",
				"/v1/completions");

		filter.filter(exchange, chain).block();

		assertThat(chain.wasCalled()).isFalse();
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(responseBody(exchange)).contains("\"code\":\"context_length_exceeded\"")
			.contains("at most 1000");
	}

	@Test
	void handsTheRequestToTheNextFallbackWhenNoLaneTakesIt() {
		MockServerWebExchange exchange = read("{\"model\":\"bounded\",\"max_tokens\":5000,\"prompt\":\"x\"}",
				"/v1/completions");
		InferenceContext.find(exchange).fallbacks(new ModelFallbacks(List.of("bounded", "gpt-4o-mini")));

		Throwable signalled = filter.filter(exchange, chain).then(Mono.<Throwable>empty())
			.onErrorResume(Mono::just)
			.block();

		assertThat(signalled).isInstanceOf(ModelUnavailableException.class);
		assertThat(chain.wasCalled()).isFalse();
	}

	@Test
	void embeddingsCountTheirInputButCarryNoPromptAndNoOutput() {
		MockServerWebExchange exchange = read("{\"model\":\"gpt-4o-mini\",\"input\":[\"abcd\",\"efgh\"]}",
				"/v1/embeddings");

		filter.filter(exchange, chain).block();

		InferenceRequest request = InferenceContext.find(chain.reached()).request();
		assertThat(request.promptText()).isEmpty();
		assertThat(request.maxTokens()).isZero();
		assertThat(request.estimatedPromptTokens()).isEqualTo(2);
	}

	@Test
	void tokenizerCallsCountNoWork() {
		MockServerWebExchange exchange = read("{\"model\":\"gpt-4o-mini\",\"prompt\":\"a long text to tokenize\"}",
				"/tokenize");

		filter.filter(exchange, chain).block();

		InferenceRequest request = InferenceContext.find(chain.reached()).request();
		assertThat(request.estimatedTotalTokens()).isZero();
	}


	/** The exchange as the read step leaves it. */
	private MockServerWebExchange read(String json) {
		MockServerWebExchange exchange = chat(json);
		reader.filter(exchange, (e) -> Mono.empty()).block();
		return exchange;
	}

	private MockServerWebExchange read(String json, String path) {
		MockServerWebExchange exchange = FilterExchanges.onInferenceRoute(MockServerHttpRequest.post(path).body(json));
		reader.filter(exchange, (e) -> Mono.empty()).block();
		return exchange;
	}

	private static ModelCatalog catalog() {
		return ModelFixtures.catalog(ModelFixtures.properties(
				"gpt-4o-mini", single("llama", "meta-llama/Llama-3.1-8B-Instruct", null),
				"support-bot", single("llama", "meta-llama/Llama-3.1-8B-Instruct", "support-lora"),
				"chat", withFallbacks(single("llama", "meta-llama/Llama-3.3-70B-Instruct", null), "gpt-4o-mini"),
				"summarize", lanes("meta-llama/Llama-3.1-8B-Instruct", lane(200, "llama"), lane(null, "llama-long")),
				"bounded", lanes(null, lane(1000, "llama"))), "llama", "llama-long");
	}
}
