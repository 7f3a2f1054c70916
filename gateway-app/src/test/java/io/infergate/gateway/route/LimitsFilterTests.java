package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.mock.web.server.MockServerWebExchange;

import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.openai.ResponseUsage;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.Limits;
import io.infergate.routing.limits.MemoryRateLimitStore;
import io.infergate.routing.limits.RateLimitPolicy;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.limits.TenantMeters;
import io.infergate.routing.request.InferenceRequest;

import static io.infergate.gateway.route.FilterExchanges.responseBody;
import static org.assertj.core.api.Assertions.assertThat;

class LimitsFilterTests {

	private static final Caller TEAM_A = new Caller("team-a", "a", 0, 1);

	private final TenantMeters meters = new TenantMeters(new SimpleMeterRegistry());

	private final LimitsFilter filter = new LimitsFilter(FilterExchanges.engine(null, new RateLimiter(
			new RateLimitPolicy(Map.of("team-a", new RateLimitPolicy.KeyLimits("a", new Limits(10L, 1000L, null), Map.of())),
					Map.of(), Map.of(), Limits.NONE),
			new MemoryRateLimitStore(Duration.ofSeconds(1)), meters), null));

	/** An exchange as resolution leaves it, with a response that will report {@code usageJson}. */
	private static MockServerWebExchange request(int maxTokens, String usageJson) {
		MockServerWebExchange exchange = FilterExchanges.chat("{}");
		InferenceContext context = InferenceContext.of(exchange);
		context.caller(TEAM_A);
		context.resolved(new ModelRoute("gpt-4o-mini", "p", "m", null),
				new InferenceRequest("gpt-4o-mini", "p", "m", null, "prompt", 10, maxTokens, false, null, 0));
		ResponseUsage usage = new ResponseUsage(false);
		usage.readJson(DefaultDataBufferFactory.sharedInstance.wrap(usageJson.getBytes(StandardCharsets.UTF_8)));
		context.usage(usage);
		return exchange;
	}

	@Test
	void admitsWithTheMostRestrictiveLimitsInTheHeaders() {
		MockServerWebExchange exchange = request(90, "{\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":90}}");
		FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

		filter.filter(exchange, chain).block();

		assertThat(chain.wasCalled()).isTrue();
		assertThat(exchange.getResponse().getHeaders().getFirst("x-ratelimit-limit-requests")).isEqualTo("10");
		assertThat(exchange.getResponse().getHeaders().getFirst("x-ratelimit-remaining-requests")).isEqualTo("9");
		assertThat(exchange.getResponse().getHeaders().getFirst("x-ratelimit-remaining-tokens")).isEqualTo("900");
		assertThat(meters.totals().get("a").inputTokens()).isEqualTo(9);
		assertThat(meters.totals().get("a").outputTokens()).isEqualTo(90);
	}

	@Test
	void chargesTheRealUsageNotTheReservation() {
		// each reserves 10 + 890 = 900 of 1000 tokens, and uses 15
		filter.filter(request(890, "{\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5}}"),
				new FilterExchanges.RecordingChain()).block();
		MockServerWebExchange second = request(890, "{\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5}}");
		FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

		filter.filter(second, chain).block();

		assertThat(chain.wasCalled()).isTrue();
	}

	@Test
	void aReachedLimitIs429WithRetryAfterAndTheOpenAiError() {
		filter.filter(request(890, "{\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":890}}"),
				new FilterExchanges.RecordingChain()).block();
		MockServerWebExchange refused = request(890, "{}");
		FilterExchanges.RecordingChain chain = new FilterExchanges.RecordingChain();

		filter.filter(refused, chain).block();

		assertThat(chain.wasCalled()).isFalse();
		assertThat(refused.getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(refused.getResponse().getHeaders().getFirst("x-infergate-dropped-reason")).isEqualTo("rate-limited");
		assertThat(Long.parseLong(refused.getResponse().getHeaders().getFirst("retry-after-ms"))).isBetween(47_000L, 48_000L);
		assertThat(refused.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("48");
		assertThat(responseBody(refused)).startsWith(
				"{\"error\":{\"message\":\"Rate limit reached for gpt-4o-mini on tokens per min (TPM): Limit 1000, Used 900, Requested 900. Please try again in ")
			.endsWith("\",\"type\":\"tokens\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}");
		assertThat(meters.totals().get("a").rateLimited()).isEqualTo(1);
	}

}
