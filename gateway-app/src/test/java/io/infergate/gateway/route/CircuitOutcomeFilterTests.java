package io.infergate.gateway.route;

import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.HttpStatus;
import org.springframework.mock.web.server.MockServerWebExchange;

import io.infergate.routing.circuit.CircuitBreakerProperties;
import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.request.InferenceRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CircuitOutcomeFilterTests {

	private final EndpointCircuits circuits = new EndpointCircuits(
			new CircuitBreakerProperties(true, 2, 50, 2, 2, Duration.ofSeconds(10), 1, Duration.ofSeconds(60)));

	private final CircuitOutcomeFilter filter = new CircuitOutcomeFilter(circuits);

	private final Endpoint pod = new Endpoint("p", URI.create("http://10.0.0.1:8000"));

	private MockServerWebExchange exchange() {
		MockServerWebExchange exchange = FilterExchanges.chat("{}");
		InferenceContext.of(exchange).dispatch(exchange,
				new Dispatch(new InferenceRequest("m", "p", "m", null, "prompt", 10, 10, false, null, 0)));
		return exchange;
	}

	/** An attempt the load balancer sends to {@code pod}, ending as {@code outcome}. */
	private GatewayFilterChain sentToPod(Mono<Void> outcome) {
		return (exchange) -> {
			Dispatch dispatch = InferenceContext.find(exchange).dispatch();
			dispatch.dispatchTo(pod);
			return outcome;
		};
	}

	@Test
	void fiveHundredsFromAnEndpointOpenItsCircuit() {
		for (int i = 0; i < 2; i++) {
			MockServerWebExchange exchange = exchange();
			exchange.getResponse().setStatusCode(HttpStatus.INTERNAL_SERVER_ERROR);
			filter.filter(exchange, sentToPod(Mono.empty())).block();
		}

		assertThat(circuits.state(pod.id())).isEqualTo("open");
	}

	@Test
	void connectionFailuresInARowOpenItsCircuitAndTravelOnUnchanged() {
		for (int i = 0; i < 2; i++) {
			assertThatThrownBy(() -> filter
				.filter(exchange(), sentToPod(Mono.error(new ConnectException("Connection refused"))))
				.block()).hasCauseInstanceOf(ConnectException.class);
		}

		assertThat(circuits.state(pod.id())).isEqualTo("open");
	}

	@Test
	void answersBelow500AreSuccesses() {
		for (int i = 0; i < 2; i++) {
			MockServerWebExchange exchange = exchange();
			exchange.getResponse().setStatusCode(HttpStatus.BAD_REQUEST);
			filter.filter(exchange, sentToPod(Mono.empty())).block();
		}

		assertThat(circuits.state(pod.id())).isEqualTo("closed");
	}

	@Test
	void anAttemptThatFoundNoEndpointRecordsNothing() {
		MockServerWebExchange exchange = exchange();
		exchange.getResponse().setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);

		filter.filter(exchange, (ex) -> Mono.empty()).block();
		filter.filter(exchange, (ex) -> Mono.empty()).block();

		assertThat(circuits.state(pod.id())).isEqualTo("closed");
	}
}
