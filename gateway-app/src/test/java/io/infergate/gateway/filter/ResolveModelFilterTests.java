package io.infergate.gateway.filter;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.reactive.function.client.WebClient;

import io.infergate.gateway.model.ModelCatalog;
import io.infergate.gateway.model.ModelProperties;
import io.infergate.gateway.model.ModelRoute;
import io.infergate.gateway.model.ServedModels;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.request.InfergateAttributes;

import static io.infergate.gateway.filter.FilterExchanges.chat;
import static io.infergate.gateway.filter.FilterExchanges.requestBody;
import static io.infergate.gateway.filter.FilterExchanges.responseBody;
import static org.assertj.core.api.Assertions.assertThat;

class ResolveModelFilterTests {

	private static final int ASSUMED_MAX_TOKENS = 256;

	private final ResolveModelFilter filter = new ResolveModelFilter(catalog(), ASSUMED_MAX_TOKENS);

	private final ReadRequestFilter reader = new ReadRequestFilter(1 << 20);

	private final FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

	@Test
	void rewritesTheModelToTheAdapterAndDescribesTheRequestForTheScheduler() {
		MockServerWebExchange exchange = read("{\"model\":\"support-bot\",\"user\":\"u-1\",\"max_tokens\":32,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}");

		filter.filter(exchange, chain).block();

		assertThat(requestBody(chain.reached())).startsWith("{\"model\":\"support-lora\",");
		assertThat(chain.reached().<ModelRoute>getAttribute(InfergateAttributes.MODEL_ROUTE))
			.isEqualTo(new ModelRoute("llama", "meta-llama/Llama-3.1-8B-Instruct", "support-lora"));
		InferenceRequest request = chain.reached().getAttribute(InfergateAttributes.INFERENCE_REQUEST);
		assertThat(request.requestedModel()).isEqualTo("support-bot");
		assertThat(request.pool()).isEqualTo("llama");
		assertThat(request.adapter()).isEqualTo("support-lora");
		assertThat(request.maxTokens()).isEqualTo(32);
		assertThat(request.sessionKey()).isEqualTo("u-1");
		assertThat(request.estimatedPromptTokens()).isEqualTo(InferenceRequest.estimateTokens(
				"\u001euser\u001fhello".length()));
	}

	@Test
	void prefersTheSessionHeaderToTheUserFieldAndAssumesMaxTokensWhenAbsent() {
		MockServerWebExchange exchange = FilterExchanges.onInferenceRoute(
				MockServerHttpRequest.post("/v1/chat/completions")
					.header(ResolveModelFilter.SESSION_HEADER, "conversation-7")
					.body("{\"model\":\"gpt-4o-mini\",\"user\":\"u-1\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"));
		reader.filter(exchange, (e) -> filter.filter(e, chain)).block();

		InferenceRequest request = chain.reached().getAttribute(InfergateAttributes.INFERENCE_REQUEST);
		assertThat(request.sessionKey()).isEqualTo("conversation-7");
		assertThat(request.maxTokens()).isEqualTo(ASSUMED_MAX_TOKENS);
		assertThat(requestBody(chain.reached())).startsWith("{\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",");
	}

	@Test
	void answersAnUnknownModelWith404AndStops() {
		MockServerWebExchange exchange = read("{\"model\":\"gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");

		filter.filter(exchange, chain).block();

		assertThat(chain.wasCalled()).isFalse();
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
		assertThat(responseBody(exchange)).contains("\"code\":\"model_not_found\"");
	}

	/** The exchange as the read step leaves it. */
	private MockServerWebExchange read(String json) {
		MockServerWebExchange exchange = chat(json);
		reader.filter(exchange, (e) -> Mono.empty()).block();
		return exchange;
	}

	private static ModelCatalog catalog() {
		PoolProperties.Pool pool = new PoolProperties.Pool();
		pool.setEndpoints(List.of(URI.create("http://127.0.0.1:1")));
		EndpointRegistry registry = new EndpointRegistry(Map.of("llama", pool));
		ModelProperties models = new ModelProperties();
		models.getModels().put("gpt-4o-mini", model("llama", "meta-llama/Llama-3.1-8B-Instruct", null));
		models.getModels().put("support-bot", model("llama", "meta-llama/Llama-3.1-8B-Instruct", "support-lora"));
		return new ModelCatalog(models, registry, new ServedModels(registry, WebClient.builder(), Duration.ofHours(1)));
	}

	private static ModelProperties.Model model(String pool, String target, String adapter) {
		ModelProperties.Model model = new ModelProperties.Model();
		model.setPool(pool);
		model.setTargetModel(target);
		model.setAdapter(adapter);
		return model;
	}
}
