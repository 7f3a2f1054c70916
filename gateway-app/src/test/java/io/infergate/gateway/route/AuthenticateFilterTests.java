package io.infergate.gateway.route;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import io.infergate.routing.auth.ApiKeys;
import io.infergate.routing.auth.AuthFixtures;
import io.infergate.routing.auth.AuthProperties;
import io.infergate.routing.limits.Caller;

import static io.infergate.gateway.route.FilterExchanges.responseBody;
import static org.assertj.core.api.Assertions.assertThat;

class AuthenticateFilterTests {

	private final AuthenticateFilter filter = new AuthenticateFilter(new ApiKeys(AuthFixtures.twoKeys()));

	private final FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

	private static MockServerWebExchange request(String header, String value) {
		MockServerHttpRequest.BodyBuilder request = MockServerHttpRequest.post("/v1/chat/completions");
		if (header != null) {
			request.header(header, value);
		}
		return FilterExchanges.onInferenceRoute(request.body("{}"));
	}

	@Test
	void aBearerKeyMakesItsCallerTheRequestsCaller() {
		MockServerWebExchange exchange = request("Authorization", "Bearer " + AuthFixtures.TEAM_A_SECRET);

		filter.filter(exchange, chain).block();

		assertThat(InferenceContext.find(chain.reached()).authenticatedCaller())
			.isEqualTo(new Caller("team-a", "a", 2, 3.0));
	}

	@Test
	void acceptsTheKeyInAnApiKeyHeader() {
		filter.filter(request("api-key", AuthFixtures.TEAM_B_SECRET), chain).block();

		assertThat(InferenceContext.find(chain.reached()).authenticatedCaller().keyId()).isEqualTo("team-b");
	}

	@Test
	void noKeyAWrongKeyAndAMalformedAuthorizationAreEach401InvalidApiKey() {
		for (MockServerWebExchange exchange : new MockServerWebExchange[] { request(null, null),
				request("Authorization", "Bearer sk-wrong"), request("Authorization", "Basic dXNlcjpwdw=="),
				request("Authorization", "Bearer"), request("Authorization", "Bearer two words") }) {
			filter.filter(exchange, chain).block();

			assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
			assertThat(responseBody(exchange)).startsWith("{\"error\":").contains("\"code\":\"invalid_api_key\"");
			assertThat(exchange.getResponse().getHeaders().getFirst("WWW-Authenticate")).isEqualTo("Bearer");
		}
		assertThat(chain.wasCalled()).isFalse();
	}

	@Test
	void theClientMayLowerItsPriorityButNotRaiseIt() {
		MockServerWebExchange lowered = FilterExchanges.onInferenceRoute(MockServerHttpRequest.post("/v1/chat/completions")
			.header("api-key", AuthFixtures.TEAM_A_SECRET)
			.header(AuthenticateFilter.PRIORITY_HEADER, "-1")
			.body("{}"));
		MockServerWebExchange raised = FilterExchanges.onInferenceRoute(MockServerHttpRequest.post("/v1/chat/completions")
			.header("api-key", AuthFixtures.TEAM_A_SECRET)
			.header(AuthenticateFilter.PRIORITY_HEADER, "9")
			.body("{}"));

		filter.filter(lowered, chain).block();
		int loweredPriority = InferenceContext.find(chain.reached()).authenticatedCaller().priority();
		filter.filter(raised, chain).block();

		assertThat(loweredPriority).isEqualTo(-1);
		assertThat(InferenceContext.find(chain.reached()).authenticatedCaller().priority()).isEqualTo(2);
	}

	@Test
	void withAuthenticationOffEveryRequestIsTheAnonymousCallers() {
		AuthenticateFilter off = new AuthenticateFilter(new ApiKeys(new AuthProperties(false, Map.of(), Map.of())));

		off.filter(request("Authorization", "Bearer anything"), chain).block();

		assertThat(InferenceContext.find(chain.reached()).authenticatedCaller()).isEqualTo(Caller.anonymous());
	}
}
