package io.infergate.gateway.route;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveXForwardedHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.OpenAiRequestParser;

import static org.assertj.core.api.Assertions.assertThat;

class InferenceHeadersFiltersTests {

	private static final List<String> DEFAULT_ALLOW_LIST = List.of("content-type", "content-length", "accept");

	private static HttpHeaders withForwardedFor() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("content-type", "application/json");
		headers.set("x-forwarded-for", "10.0.0.1");
		return headers;
	}

	private static MockServerWebExchange inferenceRequest() throws Exception {
		MockServerWebExchange exchange = FilterExchanges.chat("{\"model\":\"m\",\"prompt\":\"p\"}");
		byte[] body = "{\"model\":\"m\",\"prompt\":\"p\"}".getBytes();
		InferenceContext.of(exchange).read(body, new OpenAiRequestParser().parse(body, InferenceApi.COMPLETIONS));
		return exchange;
	}

	private static HttpHeadersFilter wrapped(List<String> allowList, HttpHeadersFilter filter) {
		return (HttpHeadersFilter) new InferenceHeadersFilters(allowList).postProcessAfterInitialization(filter, "f");
	}

	@Test
	void springsForwardedHeaderRemovalIsSkippedForInferenceRequestsOnly() throws Exception {
		HttpHeadersFilter filter = wrapped(DEFAULT_ALLOW_LIST, new RemoveXForwardedHeadersFilter());

		HttpHeaders inference = filter.filter(withForwardedFor(), inferenceRequest());
		HttpHeaders other = filter.filter(withForwardedFor(),
				MockServerWebExchange.from(MockServerHttpRequest.get("/other")));

		assertThat(inference.getFirst("x-forwarded-for")).isEqualTo("10.0.0.1"); // the allow-list ran before it
		assertThat(other.containsHeader("x-forwarded-for")).isFalse();
		assertThat(filter.supports(HttpHeadersFilter.Type.REQUEST)).isTrue();
		assertThat(filter.supports(HttpHeadersFilter.Type.RESPONSE)).isFalse();
		assertThat(((Ordered) filter).getOrder()).isEqualTo(new RemoveXForwardedHeadersFilter().getOrder());
	}

	@Test
	void nothingIsSkippedWhenTheAllowListForwardsAProxyHeader() {
		HttpHeadersFilter filter = new RemoveXForwardedHeadersFilter();

		Object processed = new InferenceHeadersFilters(List.of("content-type", "X-Forwarded-For"))
			.postProcessAfterInitialization(filter, "f");

		assertThat(processed).isSameAs(filter);
	}

	private static HttpHeaders headers(String... namesAndValues) {
		HttpHeaders headers = new HttpHeaders();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			headers.add(namesAndValues[i], namesAndValues[i + 1]);
		}
		return headers;
	}

	/** Names in lower case with their values, to compare two filters' results. */
	private static java.util.Map<String, List<String>> byLowerCaseName(HttpHeaders headers) {
		java.util.Map<String, List<String>> map = new java.util.TreeMap<>();
		headers.forEach((name, values) -> map.put(name.toLowerCase(java.util.Locale.ROOT), values));
		return map;
	}

	@Test
	void hopByHopRemovalOfAnInferenceExchangeRemovesWhatSpringCloudGatewaysFilterRemoves() throws Exception {
		RemoveHopByHopHeadersFilter spring = new RemoveHopByHopHeadersFilter();
		HttpHeadersFilter lean = wrapped(DEFAULT_ALLOW_LIST, spring);
		List<HttpHeaders> cases = List.of(
				headers("Content-Type", "application/json", "Connection", "keep-alive", "Keep-Alive", "timeout=5"),
				headers("content-type", "text/event-stream", "TRANSFER-ENCODING", "chunked", "Trailer", "x"),
				headers("Connection", "close, X-Custom", "x-custom", "1", "X-Other", "2", "Upgrade", "h2c"),
				headers("Proxy-Authorization", "Basic a", "TE", "trailers", "Server", "uvicorn"),
				headers("Content-Length", "12", "Date", "Tue, 01 Dec 2026 10:00:00 GMT"));

		for (HttpHeaders input : cases) {
			java.util.Map<String, List<String>> springs = byLowerCaseName(
					spring.filter(HttpHeaders.copyOf(input), inferenceRequest()));
			assertThat(byLowerCaseName(lean.filter(HttpHeaders.copyOf(input), inferenceRequest())))
				.as(input.toString())
				.isEqualTo(springs);
			assertThat(byLowerCaseName(lean.filter(HttpHeaders.readOnlyHttpHeaders(HttpHeaders.copyOf(input)),
					inferenceRequest())))
				.as("read-only " + input)
				.isEqualTo(springs);
		}
		assertThat(lean.supports(HttpHeadersFilter.Type.RESPONSE)).isTrue();
		assertThat(((Ordered) lean).getOrder()).isEqualTo(spring.getOrder());
	}

	@Test
	void hopByHopRemovalReturnsHeadersWithoutHopByHopOnesAsTheyAre() throws Exception {
		HttpHeadersFilter lean = wrapped(DEFAULT_ALLOW_LIST, new RemoveHopByHopHeadersFilter());
		HttpHeaders clean = headers("Content-Type", "application/json", "Content-Length", "12");

		assertThat(lean.filter(clean, inferenceRequest())).isSameAs(clean);
	}

	@Test
	void hopByHopRemovalKeepsItsConfiguredHeaders() throws Exception {
		RemoveHopByHopHeadersFilter spring = new RemoveHopByHopHeadersFilter();
		spring.setHeaders(java.util.Set.of("X-Internal"));
		HttpHeadersFilter lean = wrapped(DEFAULT_ALLOW_LIST, spring);

		HttpHeaders kept = lean.filter(headers("x-internal", "1", "Keep-Alive", "timeout=5"), inferenceRequest());

		assertThat(byLowerCaseName(kept)).containsOnlyKeys("keep-alive");
	}

	@Test
	void theAllowListRunsFirstOfTheHeadersFilters() {
		assertThat(new ForwardedHeadersFilter(DEFAULT_ALLOW_LIST).getOrder())
			.isLessThan(new RemoveXForwardedHeadersFilter().getOrder())
			.isLessThan(new RemoveHopByHopHeadersFilter().getOrder());
	}
}
