package io.infergate.gateway.route;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.model.ModelFixtures;
import io.infergate.routing.model.ModelRoute;

import static io.infergate.routing.model.ModelFixtures.single;
import static io.infergate.routing.model.ModelFixtures.withFallbacks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ModelFallbackFilterTests {

	private final ModelCatalog catalog = ModelFixtures.catalog(ModelFixtures.properties(
			"chat", withFallbacks(single("llama", "llama-8b", null), "chat-large"),
			"chat-large", withFallbacks(single("llama-large", "llama-70b", null), "chat-xl"),
			"chat-xl", single("llama-large", "llama-405b", null)), "llama", "llama-large");

	private final ModelFallbackFilter filter = new ModelFallbackFilter(FilterExchanges.engine(catalog, null, null));

	private final MockServerWebExchange exchange = parsed("{\"model\":\"chat\",\"messages\":[{\"role\":\"user\","
			+ "\"content\":\"hi\"}]}");

	/** The models the per-model steps ran for, in order. */
	private final List<String> tried = new ArrayList<>();

	@Test
	void runsThePerModelStepsAgainForEachFallbackInTurn() {
		filter.filter(exchange, (e) -> {
			String model = current(e);
			tried.add(model);
			return model.equals("chat-xl") ? e.getResponse().setComplete()
					: Mono.error(new ModelUnavailableException(model + " answered 503"));
		}).block();

		assertThat(tried).containsExactly("chat", "chat-large", "chat-xl");
		assertThat(catalog.configured("chat").report().fallbacksTaken()).isEqualTo(1);
		assertThat(catalog.configured("chat-large").report().fallbacksTaken()).isEqualTo(1);
		assertThat(InferenceContext.find(exchange).fallbacks().taken()).isEqualTo(2);
	}

	@Test
	void clearsWhatTheFailedModelLeftOnTheExchange() {
		List<ModelRoute> routesSeen = new ArrayList<>();
		List<HttpStatusCode> statusSeen = new ArrayList<>();
		filter.filter(exchange, (e) -> {
			routesSeen.add(InferenceContext.find(e).route());
			statusSeen.add(e.getResponse().getStatusCode());
			if (tried.add(current(e)) && tried.size() == 1) {
				InferenceContext.find(e).resolved(new ModelRoute("chat", "llama", "llama-8b", null), null);
				e.getAttributes().put(ServerWebExchangeUtils.CLIENT_RESPONSE_HEADER_NAMES, Set.of("retry-after"));
				e.getResponse().getHeaders().set("retry-after", "1");
				e.getResponse().setStatusCode(HttpStatus.TOO_MANY_REQUESTS);
				return Mono.error(new ModelUnavailableException("chat answered 429"));
			}
			return e.getResponse().setComplete();
		}).block();

		assertThat(routesSeen.get(1)).isNull();
		assertThat(statusSeen.get(1)).isNull();
		assertThat(exchange.getResponse().getHeaders().containsHeader("retry-after")).isFalse();
	}

	@Test
	void leavesAResponseAStepWroteItselfAlone() {
		filter.filter(exchange, (e) -> {
			tried.add(current(e));
			e.getResponse().setStatusCode(HttpStatus.TOO_MANY_REQUESTS);
			return e.getResponse().setComplete();
		}).block();

		assertThat(tried).containsExactly("chat");
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
	}

	@Test
	void passesOtherFailuresOn() {
		assertThatIllegalStateException().isThrownBy(() -> filter.filter(exchange, (e) -> {
			tried.add(current(e));
			return Mono.error(new IllegalStateException("not a fallback"));
		}).block());

		assertThat(tried).containsExactly("chat");
	}

	private static String current(ServerWebExchange exchange) {
		return InferenceContext.find(exchange).fallbacks().current();
	}

	private static MockServerWebExchange parsed(String json) {
		MockServerWebExchange exchange = FilterExchanges.chat(json);
		new ReadRequestFilter(1 << 20).filter(exchange, (e) -> Mono.empty()).block();
		return exchange;
	}
}
