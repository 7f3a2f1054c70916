package io.infergate.gateway.filter;

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
import io.infergate.routing.request.InfergateAttributes;

import static org.assertj.core.api.Assertions.assertThat;

class InferenceRequestHeadersTests {

	private static final List<String> DEFAULT_ALLOW_LIST = List.of("content-type", "content-length", "accept");

	private static HttpHeaders withForwardedFor() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("content-type", "application/json");
		headers.set("x-forwarded-for", "10.0.0.1");
		return headers;
	}

	private static MockServerWebExchange inferenceRequest() throws Exception {
		MockServerWebExchange exchange = FilterExchanges.chat("{\"model\":\"m\",\"prompt\":\"p\"}");
		exchange.getAttributes().put(InfergateAttributes.PARSED_REQUEST,
				new OpenAiRequestParser().parse("{\"model\":\"m\",\"prompt\":\"p\"}".getBytes(), InferenceApi.COMPLETIONS));
		return exchange;
	}

	private static HttpHeadersFilter wrapped(List<String> allowList, HttpHeadersFilter filter) {
		return (HttpHeadersFilter) new InferenceRequestHeaders(allowList).postProcessAfterInitialization(filter, "f");
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

		Object processed = new InferenceRequestHeaders(List.of("content-type", "X-Forwarded-For"))
			.postProcessAfterInitialization(filter, "f");

		assertThat(processed).isSameAs(filter);
	}

	@Test
	void filtersThatAlsoActOnResponsesAreLeftAlone() {
		HttpHeadersFilter hopByHop = new RemoveHopByHopHeadersFilter();

		assertThat(wrapped(DEFAULT_ALLOW_LIST, hopByHop)).isSameAs(hopByHop);
	}

	@Test
	void theAllowListRunsFirstOfTheHeadersFilters() {
		assertThat(new ForwardedHeadersFilter(DEFAULT_ALLOW_LIST).getOrder())
			.isLessThan(new RemoveXForwardedHeadersFilter().getOrder())
			.isLessThan(new RemoveHopByHopHeadersFilter().getOrder());
	}
}
