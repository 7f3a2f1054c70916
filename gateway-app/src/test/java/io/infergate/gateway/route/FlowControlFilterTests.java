package io.infergate.gateway.route;

import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.flowcontrol.FlowControlProperties;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.request.InferenceRequest;

import static io.infergate.gateway.route.FilterExchanges.responseBody;
import static org.assertj.core.api.Assertions.assertThat;

class FlowControlFilterTests {

	private final AtomicBoolean room = new AtomicBoolean(true);

	private final FlowController controller = new FlowController(registry(),
			(ready, requests, tokens, now) -> room.get(), FlowControlProperties.defaults(true), Clock.systemUTC(),
			new SimpleMeterRegistry());

	private final FlowControlFilter filter = new FlowControlFilter(FilterExchanges.engine(null, null, controller));

	private static EndpointRegistry registry() {
		PoolProperties.Pool pool = PoolProperties.Pool.of(List.of(URI.create("http://10.0.0.1:8000")), null);
		EndpointRegistry registry = new EndpointRegistry(Map.of("p", pool));
		registry.sync("p", pool.endpoints());
		registry.pool("p").endpoints().forEach((endpoint) -> endpoint.setReady(true));
		return registry;
	}

	private static MockServerWebExchange request(int priority, String... headers) {
		MockServerHttpRequest.BodyBuilder builder = MockServerHttpRequest.post("/v1/chat/completions");
		for (int i = 0; i < headers.length; i += 2) {
			builder.header(headers[i], headers[i + 1]);
		}
		MockServerWebExchange exchange = FilterExchanges.onInferenceRoute(builder.body("{}"));
		InferenceContext context = InferenceContext.of(exchange);
		context.caller(new Caller("k", "t", priority, 1));
		context.resolved(new ModelRoute("m", "p", "m", null),
				new InferenceRequest("m", "p", "m", null, "prompt", 10, 90, false, null, priority));
		return exchange;
	}

	@Test
	void aDispatchedRequestRunsTheChainAndFreesItsCapacityWhenTheResponseEnds() {
		FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

		filter.filter(request(0), chain).block();

		assertThat(chain.wasCalled()).isTrue();
		assertThat(controller.report("p").inFlightRequests()).isZero();
	}

	@Test
	void aRefusalIs429WithRetryAfterAndItsReasonAndNeverReachesTheChain() {
		room.set(false);
		MockServerWebExchange exchange = request(-1);
		FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

		filter.filter(exchange, chain).block();

		assertThat(chain.wasCalled()).isFalse();
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(exchange.getResponse().getHeaders().getFirst("x-infergate-dropped-reason"))
			.isEqualTo("rejected-sheddable");
		assertThat(exchange.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("1");
		assertThat(exchange.getResponse().getHeaders().getFirst("retry-after-ms")).isEqualTo("1000");
		assertThat(responseBody(exchange)).contains("\"code\":\"rejected_sheddable\"");
	}

	@Test
	void aRequestThatWaitedCarriesItsWaitAndOneDispatchedAtOnceCarriesNone() throws Exception {
		MockServerWebExchange atOnce = request(0);
		filter.filter(atOnce, new FilterExchanges.RecordingChain()).block();
		assertThat(InferenceContext.find(atOnce).queueWaitNanos()).isEqualTo(-1);

		room.set(false);
		MockServerWebExchange waiting = request(0);
		FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();
		CompletableFuture<Void> done = filter.filter(waiting, chain).toFuture();
		Thread.sleep(30);
		assertThat(done).isNotDone();
		room.set(true);
		controller.sweep();
		done.get(5, TimeUnit.SECONDS);

		assertThat(chain.wasCalled()).isTrue();
		long waited = InferenceContext.find(waiting).queueWaitNanos();
		assertThat(waited).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(30));
	}

	@Test
	void shuttingDownIs503() {
		controller.shutDown();
		MockServerWebExchange exchange = request(0);

		filter.filter(exchange, new FilterExchanges.RecordingChain()).block();

		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
		assertThat(exchange.getResponse().getHeaders().getFirst("x-infergate-dropped-reason"))
			.isEqualTo("shutting-down");
	}

	@Test
	void aQueueTtlThatIsNotAWholeNumberOfMillisecondsIs400() {
		MockServerWebExchange exchange = request(0, FlowControlFilter.QUEUE_TTL_HEADER, "soon");
		FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

		filter.filter(exchange, chain).block();

		assertThat(chain.wasCalled()).isFalse();
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(responseBody(exchange)).contains(FlowControlFilter.QUEUE_TTL_HEADER);
	}
}
