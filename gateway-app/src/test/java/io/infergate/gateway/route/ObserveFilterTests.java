package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import io.infergate.gateway.observe.CompletedRequest;
import io.infergate.gateway.observe.InferenceMeters;
import io.infergate.gateway.observe.InferenceSpanTags;
import io.infergate.gateway.observe.RelayedResponse;
import io.infergate.routing.openai.ResponseUsage;
import io.infergate.routing.limits.Caller;

import static org.assertj.core.api.Assertions.assertThat;

class ObserveFilterTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final ObserveFilter filter = new ObserveFilter(new InferenceMeters(registry), new InferenceSpanTags(), null);

	@Test
	void notesTheArrivalOfAnInferenceRequestForTheLaterSteps() {
		MockServerWebExchange exchange = FilterExchanges.chat("{}");
		FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

		filter.filter(exchange, chain).block();

		assertThat(InferenceContext.find(chain.reached()).relayed()).isNotNull();
	}


	@Test
	void aCompletedRequestCarriesItsTtftDurationCallerAndReportedUsage() {
		MockServerWebExchange exchange = FilterExchanges.chat("{}");
		RelayedResponse relayed = new RelayedResponse(1_000);
		relayed.onBody(DefaultDataBufferFactory.sharedInstance.wrap("{".getBytes(StandardCharsets.UTF_8)));
		ResponseUsage usage = new ResponseUsage(false);
		usage.readJson(DefaultDataBufferFactory.sharedInstance.wrap(
				"{\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}".getBytes(StandardCharsets.UTF_8)));
		InferenceContext context = InferenceContext.of(exchange);
		context.relayed(relayed);
		context.usage(usage);
		context.caller(new Caller("team-a", "tenant-a", 0, 1.0));

		CompletedRequest request = ObserveFilter.completedRequest(exchange, context, null, 200, true,
				relayed.firstByteNanos() + 500);

		assertThat(request.ttftNanos()).isEqualTo(relayed.firstByteNanos() - 1_000);
		assertThat(request.durationNanos()).isEqualTo(request.ttftNanos() + 500);
		assertThat(request.usage().inputTokens()).isEqualTo(3);
		assertThat(request.usage().outputTokens()).isEqualTo(2);
		assertThat(request.apiKeyId()).isEqualTo("team-a");
		assertThat(request.tenant()).isEqualTo("tenant-a");
		assertThat(request.pool()).as("never routed").isNull();
		assertThat(request.isServed()).as("no endpoint served it").isFalse();
	}

	@Test
	void usageTheServerDidNotReportIsLeftOut() {
		MockServerWebExchange exchange = FilterExchanges.chat("{}");
		ResponseUsage usage = new ResponseUsage(false);
		usage.readJson(DefaultDataBufferFactory.sharedInstance.wrap("{\"choices\":[]}".getBytes(StandardCharsets.UTF_8)));
		InferenceContext context = InferenceContext.of(exchange);
		context.relayed(new RelayedResponse(0));
		context.usage(usage);

		CompletedRequest request = ObserveFilter.completedRequest(exchange, context, null, 200, true, 10);

		assertThat(request.usage()).isNull();
	}

	@Test
	void aRequestTheClientCancelsIsRecordedOnceAsClientClosed() {
		MockServerWebExchange exchange = FilterExchanges.chat("{}");

		Disposable subscription = filter.filter(exchange, new FilterExchanges.RecordingChain(Mono.never())).subscribe();
		subscription.dispose();
		RelayedResponse relayed = InferenceContext.find(exchange).relayed();

		assertThat(relayed.finish()).as("already recorded").isFalse();
		assertThat(registry.getMeters()).as("nothing served").isEmpty();
	}

	@Test
	void queueWaitAndFallbacksAreRecordedWhenTheRequestHasThem() {
		MockServerWebExchange exchange = FilterExchanges.chat("{}");
		ModelFallbacks fallbacks = new ModelFallbacks(List.of("llama", "llama-backup"));
		fallbacks.next();
		InferenceContext context = InferenceContext.of(exchange);
		context.relayed(new RelayedResponse(0));
		context.queueWaitNanos(7_000_000L);
		context.fallbacks(fallbacks);

		CompletedRequest request = ObserveFilter.completedRequest(exchange, context, null, 200, true, 10);

		assertThat(request.queueWaitNanos()).isEqualTo(7_000_000L);
		assertThat(request.fallbacks()).isEqualTo(1);
		assertThat(request.ttftNanos()).as("nothing relayed").isEqualTo(-1);
	}
}
