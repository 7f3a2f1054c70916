package io.infergate.gateway.route;

import java.net.URI;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.request.InferenceRequest;

import static org.assertj.core.api.Assertions.assertThat;

class ServedByFilterTests {

	private final Endpoint primary = new Endpoint("llama", URI.create("http://10.0.0.5:8000"));

	private final Endpoint fallback = new Endpoint("llama-large", URI.create("http://10.0.0.9:8000"));

	private final MockServerWebExchange exchange = FilterExchanges.chat("{}");

	@Test
	void saysWhichPoolModelAndEndpointServedTheResponse() {
		InferenceContext.of(exchange).fallbacks(new ModelFallbacks(List.of("chat")));

		new ServedByFilter().filter(exchange, (e) -> respond(e, route("llama", "llama-8b"), primary)).block();

		HttpHeaders headers = exchange.getResponse().getHeaders();
		assertThat(headers.getFirst(ServedByFilter.POOL_HEADER)).isEqualTo("llama");
		assertThat(headers.getFirst(ServedByFilter.MODEL_HEADER)).isEqualTo("llama-8b");
		assertThat(headers.getFirst(ServedByFilter.ENDPOINT_HEADER)).isEqualTo("10.0.0.5:8000");
		assertThat(headers.getFirst(ServedByFilter.FALLBACKS_HEADER)).isEqualTo("0");
	}

	@Test
	void namesTheFallbackThatFinallyAnswered() {
		ModelFallbacks fallbacks = new ModelFallbacks(List.of("chat", "chat-large"));
		InferenceContext.of(exchange).fallbacks(fallbacks);

		new ServedByFilter().filter(exchange, (e) -> {
			dispatch(e, route("llama", "llama-8b")).dispatchTo(primary);
			fallbacks.next();
			return respond(e, route("llama-large", "llama-70b"), fallback);
		}).block();

		HttpHeaders headers = exchange.getResponse().getHeaders();
		assertThat(headers.getFirst(ServedByFilter.POOL_HEADER)).isEqualTo("llama-large");
		assertThat(headers.getFirst(ServedByFilter.MODEL_HEADER)).isEqualTo("llama-70b");
		assertThat(headers.getFirst(ServedByFilter.ENDPOINT_HEADER)).isEqualTo("10.0.0.9:8000");
		assertThat(headers.getFirst(ServedByFilter.FALLBACKS_HEADER)).isEqualTo("1");
	}

	@Test
	void namesNoEndpointWhenNoneAnswered() {
		new ServedByFilter().filter(exchange, (e) -> {
			dispatch(e, route("llama", "llama-8b"));
			e.getResponse().setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
			return e.getResponse().setComplete();
		}).block();

		assertThat(exchange.getResponse().getHeaders().getFirst(ServedByFilter.POOL_HEADER)).isEqualTo("llama");
		assertThat(exchange.getResponse().getHeaders().containsHeader(ServedByFilter.ENDPOINT_HEADER)).isFalse();
	}

	@Test
	void saysNothingAboutARequestThatWasNeverDispatched() {
		new ServedByFilter().filter(exchange, (e) -> {
			e.getResponse().setStatusCode(HttpStatus.NOT_FOUND);
			return e.getResponse().setComplete();
		}).block();

		assertThat(exchange.getResponse().getHeaders().headerNames()).noneMatch((name) -> name.startsWith("x-infergate"));
	}


	private static ModelRoute route(String pool, String targetModel) {
		return new ModelRoute("chat", pool, targetModel, null);
	}

	private static Dispatch dispatch(ServerWebExchange exchange, ModelRoute route) {
		Dispatch dispatch = new Dispatch(new InferenceRequest(route.model(), route.pool(), route.targetModel(), null,
				"hi", 1, 16, false, null, 0));
		InferenceContext context = InferenceContext.of(exchange);
		context.resolved(route, dispatch.request());
		context.dispatch(exchange, dispatch);
		return dispatch;
	}

	/** What the dispatch step and the proxy do: dispatch, receive the upstream's response, write it. */
	private static Mono<Void> respond(ServerWebExchange exchange, ModelRoute route, Endpoint endpoint) {
		dispatch(exchange, route).dispatchTo(endpoint);
		exchange.getAttributes().put(ServerWebExchangeUtils.CLIENT_RESPONSE_ATTR, new Object());
		return exchange.getResponse().setComplete();
	}
}
