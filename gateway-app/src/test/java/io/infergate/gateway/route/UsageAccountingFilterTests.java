package io.infergate.gateway.route;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.request.InferenceRequest;

import static io.infergate.gateway.route.FilterExchanges.requestBody;
import static org.assertj.core.api.Assertions.assertThat;

class UsageAccountingFilterTests {

	private final UsageAccountingFilter filter = new UsageAccountingFilter();

	private final FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

	/** The exchange as resolution leaves it: parsed, with the body to forward cached. */
	private static ServerWebExchange resolved(String json) {
		MockServerWebExchange exchange = FilterExchanges.chat(json);
		new ReadRequestFilter(1 << 20).filter(exchange, (e) -> Mono.empty()).block();
		InferenceContext context = InferenceContext.find(exchange);
		context.resolved(new ModelRoute("m", "p", "m", null), new InferenceRequest("m", "p", "m", null, "x", 1, 16, true, null, 0));
		byte[] body = context.body();
		return exchange.mutate()
			.request(new CachedBodyRequest(exchange.getRequest(), body, exchange.getResponse().bufferFactory()))
			.build();
	}

	@Test
	void asksAStreamForItsUsageWhenTheClientDidNot() {
		filter.filter(resolved("{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"),
				chain).block();

		assertThat(requestBody(chain.reached())).isEqualTo("{\"stream_options\":{\"include_usage\":true},\"model\":\"m\","
				+ "\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
		assertThat(InferenceContext.find(chain.reached()).usage()).isNotNull();
	}

	@Test
	void forwardsUnchangedAStreamThatAsksForUsageAndARequestThatDoesNotStream() {
		String asks = "{\"model\":\"m\",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";
		String plain = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";

		filter.filter(resolved(asks), chain).block();
		String forwardedStream = requestBody(chain.reached());
		filter.filter(resolved(plain), chain).block();

		assertThat(forwardedStream).isEqualTo(asks);
		assertThat(requestBody(chain.reached())).isEqualTo(plain);
	}
}
