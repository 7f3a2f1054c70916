package io.infergate.gateway.route;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import io.infergate.routing.openai.ParsedRequest;

import static io.infergate.gateway.route.FilterExchanges.chat;
import static io.infergate.gateway.route.FilterExchanges.onInferenceRoute;
import static io.infergate.gateway.route.FilterExchanges.responseBody;
import static org.assertj.core.api.Assertions.assertThat;

class ReadRequestFilterTests {

	private final ReadRequestFilter filter = new ReadRequestFilter(1024);

	private final FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

	@Test
	void passesTheParsedRequestAndTheBodyToTheNextStep() {
		String json = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true}";
		MockServerWebExchange exchange = chat(json);

		filter.filter(exchange, chain).block();

		ParsedRequest parsed = InferenceContext.find(chain.reached()).parsed();
		assertThat(parsed.model()).isEqualTo("m");
		assertThat(parsed.stream()).isTrue();
		assertThat(new String(InferenceContext.find(chain.reached()).body()))
			.isEqualTo(json);
	}

	@Test
	void answersMalformedJsonWith400AndStops() {
		MockServerWebExchange exchange = chat("{\"model\":");

		filter.filter(exchange, chain).block();

		assertThat(chain.wasCalled()).isFalse();
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(responseBody(exchange)).contains("\"code\":\"invalid_json\"");
	}

	@Test
	void answersAMissingFieldWith400NamingIt() {
		MockServerWebExchange exchange = chat("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

		filter.filter(exchange, chain).block();

		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(responseBody(exchange)).contains("\"param\":\"model\"");
	}

	@Test
	void answersADeclaredLengthOverTheLimitWith413WithoutReadingAndClosesTheConnection() {
		MockServerWebExchange exchange = onInferenceRoute(MockServerHttpRequest.post("/v1/chat/completions")
			.contentLength(4096)
			.body(Flux.never()));

		filter.filter(exchange, chain).block();

		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.PAYLOAD_TOO_LARGE);
		assertThat(exchange.getResponse().getHeaders().getConnection()).containsExactly("close");
		assertThat(responseBody(exchange)).contains("\"code\":\"request_too_large\"");
	}

	@Test
	void answersAStreamedBodyWith413AsSoonAsItPassesTheLimit() {
		DataBuffer chunk = DefaultDataBufferFactory.sharedInstance.wrap(new byte[600]);
		DataBuffer next = DefaultDataBufferFactory.sharedInstance.wrap(new byte[600]);
		// never completes: the filter must answer from the first 1200 bytes alone
		Flux<DataBuffer> endless = Flux.concat(Flux.just(chunk, next), Flux.never());
		MockServerWebExchange exchange = onInferenceRoute(MockServerHttpRequest.post("/v1/chat/completions")
			.body(endless));

		filter.filter(exchange, chain).block();

		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.PAYLOAD_TOO_LARGE);
		assertThat(chain.wasCalled()).isFalse();
	}

}
