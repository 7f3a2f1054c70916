package io.infergate.gateway.route;

import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.model.ModelCatalog;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;


/** Exchanges on the inference route, and a chain that records what reached it, for the filters' unit tests. */
final class FilterExchanges {

	private FilterExchanges() {
	}

	static MockServerWebExchange onInferenceRoute(MockServerHttpRequest request) {
		MockServerWebExchange exchange = MockServerWebExchange.from(request);
		exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR, inferenceRoute());
		return exchange;
	}

	static MockServerWebExchange chat(String json) {
		return onInferenceRoute(MockServerHttpRequest.post("/v1/chat/completions")
			.header("content-type", "application/json")
			.body(json));
	}

	private static Route inferenceRoute() {
		return Route.async()
			.id(InferenceRoute.ID)
			.uri(URI.create("lb://pool-chosen-per-request"))
			.predicate((exchange) -> true)
			.build();
	}

	/** The response body written so far, as text. */
	static String responseBody(MockServerWebExchange exchange) {
		return exchange.getResponse().getBodyAsString().block();
	}

	/** The request body as the next filter would read it. */
	static String requestBody(ServerWebExchange exchange) {
		return DataBufferUtils.join(exchange.getRequest().getBody())
			.map((buffer) -> buffer.toString(StandardCharsets.UTF_8))
			.block();
	}

	/** A chain that records the exchange it was called with and completes. */
	static final class RecordingChain implements GatewayFilterChain {

		private final AtomicReference<ServerWebExchange> reached = new AtomicReference<>();

		private final Mono<Void> result;

		RecordingChain() {
			this(Mono.empty());
		}

		RecordingChain(Mono<Void> result) {
			this.result = result;
		}

		@Override
		public Mono<Void> filter(ServerWebExchange exchange) {
			reached.set(exchange);
			return result;
		}

		ServerWebExchange reached() {
			return reached.get();
		}

		boolean wasCalled() {
			return reached.get() != null;
		}
	}

	/** An engine that decides with these parts; the steps under test use no other. */
	static InferenceEngine engine(ModelCatalog models, RateLimiter limiter, FlowController flowControl) {
		return new InferenceEngine(models, limiter, flowControl, null, InferenceEngine.DEFAULT_ASSUMED_MAX_TOKENS);
	}
}
