package io.infergate.gateway.route;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import io.infergate.routing.limits.Bucket;
import io.infergate.routing.limits.LimitKind;
import io.infergate.routing.limits.LimitScope;
import io.infergate.routing.limits.LimitState;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitHeadersTests {

	@Test
	void writesDurationsAsOpenAiDoesRoundedUpToTheMillisecond() {
		assertThat(RateLimitHeaders.duration(643_001)).isEqualTo("644ms");
		assertThat(RateLimitHeaders.duration(1_000_000)).isEqualTo("1s");
		assertThat(RateLimitHeaders.duration(1_500_000)).isEqualTo("1.5s");
		assertThat(RateLimitHeaders.duration(17_280_000)).isEqualTo("17.28s");
		assertThat(RateLimitHeaders.duration(360_000_000)).isEqualTo("6m0s");
		assertThat(RateLimitHeaders.duration(3_600_000_000L)).isEqualTo("1h0m0s");
	}

	@Test
	void aRefusalSaysWhichLimitWasReachedAndWhenToRetry() {
		LimitState denied = new LimitState(new Bucket(LimitScope.KEY, "k", 0, 30_000, 0), LimitKind.TPM, 30_000,
				29_500, 2_000_000, 643_500, 1200);
		HttpHeaders headers = new HttpHeaders();

		RateLimitHeaders.writeRefusal(headers, denied);

		assertThat(RateLimitHeaders.refusal("gpt-4o-mini", denied).toJson()).isEqualTo(
				"{\"error\":{\"message\":\"Rate limit reached for gpt-4o-mini on tokens per min (TPM): Limit 30000, "
						+ "Used 500, Requested 1200. Please try again in 644ms.\",\"type\":\"tokens\",\"param\":null,"
						+ "\"code\":\"rate_limit_exceeded\"}}");
		assertThat(headers.getFirst("Retry-After")).isEqualTo("1");
		assertThat(headers.getFirst("retry-after-ms")).isEqualTo("644");
		assertThat(headers.getFirst("x-infergate-dropped-reason")).isEqualTo("rate-limited");
	}
}
