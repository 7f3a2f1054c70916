package io.infergate.gateway.route;

import java.net.URI;
import java.util.Map;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.request.InferenceRequest;

import static org.assertj.core.api.Assertions.assertThat;

class DispatchFilterTests {

	private final Endpoint endpoint = new Endpoint("llama", URI.create("http://10.0.0.5:8000"));

	@Test
	void countsTheRequestInFlightUntilTheResponseHasBeenWritten() {
		MockServerWebExchange exchange = resolved();
		int[] inFlightWhileResponding = new int[1];

		new DispatchFilter(FilterExchanges.engine(null, null, null), new PoolTimeouts(new EndpointRegistry(Map.of()))).filter(exchange, (e) -> {
			dispatchOf(e).dispatchTo(endpoint);
			inFlightWhileResponding[0] = endpoint.inFlightRequests();
			return Mono.empty();
		}).block();

		assertThat(inFlightWhileResponding[0]).isEqualTo(1);
		assertThat(endpoint.inFlightRequests()).isZero();
		assertThat(endpoint.inFlightTokens()).isZero();
	}

	@Test
	void releasesTheInFlightCountWhenTheClientCancels() {
		MockServerWebExchange exchange = resolved();

		Disposable subscription = new DispatchFilter(FilterExchanges.engine(null, null, null), new PoolTimeouts(new EndpointRegistry(Map.of()))).filter(exchange, (e) -> {
			dispatchOf(e).dispatchTo(endpoint);
			return Mono.never();
		}).subscribe();
		assertThat(endpoint.inFlightRequests()).isEqualTo(1);
		subscription.dispose();

		assertThat(endpoint.inFlightRequests()).isZero();
	}

	@Test
	void releasesTheInFlightCountWhenTheResponseFails() {
		MockServerWebExchange exchange = resolved();

		new DispatchFilter(FilterExchanges.engine(null, null, null), new PoolTimeouts(new EndpointRegistry(Map.of()))).filter(exchange, (e) -> {
			dispatchOf(e).dispatchTo(endpoint);
			return Mono.error(new IllegalStateException("upstream reset"));
		}).onErrorComplete().block();

		assertThat(endpoint.inFlightRequests()).isZero();
	}


	private static Dispatch dispatchOf(ServerWebExchange exchange) {
		return InferenceContext.find(exchange).dispatch();
	}

	/** The exchange as the resolve step leaves it. */
	private static MockServerWebExchange resolved() {
		MockServerWebExchange exchange = FilterExchanges.chat("{}");
		InferenceContext.of(exchange).resolved(new ModelRoute("llama-8b", "llama", "llama-8b", null),
				new InferenceRequest("llama-8b", "llama", "llama-8b", null, "hi", 1, 16, false, null, 0));
		return exchange;
	}
}
