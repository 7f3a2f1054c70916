package io.infergate.gateway.route;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.mock.web.server.MockServerWebExchange;

import io.infergate.routing.auth.ApiKeys;
import io.infergate.routing.auth.AuthFixtures;
import io.infergate.routing.limits.Caller;

import static io.infergate.gateway.route.FilterExchanges.responseBody;
import static org.assertj.core.api.Assertions.assertThat;

class AuthorizeModelFilterTests {

	private final ApiKeys keys = new ApiKeys(AuthFixtures.twoKeys());

	private final AuthorizeModelFilter filter = new AuthorizeModelFilter(keys);

	private final FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

	private MockServerWebExchange parsed(String model, Caller caller) {
		MockServerWebExchange exchange = FilterExchanges
			.chat("{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
		new ReadRequestFilter(1 << 20).filter(exchange, (e) -> Mono.empty()).block();
		InferenceContext.of(exchange).caller(caller);
		return exchange;
	}

	@Test
	void aModelOutsideTheKeysGlobsIs403NamingTheKey() {
		MockServerWebExchange exchange = parsed("llama-70b", keys.byId("team-a").caller());

		filter.filter(exchange, chain).block();

		assertThat(chain.wasCalled()).isFalse();
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
		assertThat(responseBody(exchange)).contains("\"code\":\"model_not_allowed\"").contains("team-a")
			.contains("\"param\":\"model\"");
	}

	@Test
	void aModelTheKeyMayCallPasses() {
		filter.filter(parsed("gpt-4o-mini", keys.byId("team-a").caller()), chain).block();

		assertThat(chain.wasCalled()).isTrue();
	}

	@Test
	void theAnonymousCallerMayCallEveryModel() {
		filter.filter(parsed("llama-70b", Caller.anonymous()), chain).block();

		assertThat(chain.wasCalled()).isTrue();
	}
}
