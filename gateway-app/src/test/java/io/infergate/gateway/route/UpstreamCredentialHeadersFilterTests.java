package io.infergate.gateway.route;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.mock.web.server.MockServerWebExchange;

import io.infergate.routing.model.ModelRoute;

import static org.assertj.core.api.Assertions.assertThat;

class UpstreamCredentialHeadersFilterTests {

	private final UpstreamCredentialHeadersFilter filter = new UpstreamCredentialHeadersFilter(
			Map.of("secured", "pool-token")::get);

	private static HttpHeaders clientHeaders() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("Authorization", "Bearer sk-client");
		headers.set("api-key", "sk-client");
		headers.set("x-session-id", "s1");
		return headers;
	}

	private static MockServerWebExchange routedTo(String pool) {
		MockServerWebExchange exchange = FilterExchanges.chat("{}");
		InferenceContext.of(exchange).resolved(new ModelRoute("m", pool, "m", null), null);
		return exchange;
	}

	@Test
	void neverForwardsTheClientsCredential() {
		HttpHeaders sent = filter.filter(clientHeaders(), routedTo("open"));

		assertThat(sent.containsHeader("Authorization")).isFalse();
		assertThat(sent.containsHeader("api-key")).isFalse();
		assertThat(sent.getFirst("x-session-id")).isEqualTo("s1");
	}

	@Test
	void sendsThePoolsOwnCredentialInstead() {
		HttpHeaders sent = filter.filter(clientHeaders(), routedTo("secured"));

		assertThat(sent.get("Authorization")).containsExactly("Bearer pool-token");
		assertThat(sent.containsHeader("api-key")).isFalse();
	}
}
