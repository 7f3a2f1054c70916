package io.infergate.gateway.examples;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.route.AuthenticateFilter;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.routing.limits.Limits;
import io.infergate.routing.limits.LimitTypes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A new limit type is its class, this test and one line of configuration: the line that gives one of its subjects a
 * limit. The type is a {@code @Component}, found by the application's component scan.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				// the one line
				"infergate.rate-limits.by.priority-band.sheddable.rpm=2" })
class PriorityBandLimitTests extends SimulatedPods {

	@Autowired
	MeterRegistry meters;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		registry.add("infergate.pools.p.endpoints", () -> sims.start("llama").baseUrl());
	}

	@BeforeEach
	void ready() {
		awaitReady("p");
	}

	@Test
	void sheddableRequestsShareTheirBandsLimitAndOtherBandsAreNotLimited() {
		assertThat(chat("-1").statusCode()).isEqualTo(200);
		assertThat(chat("-5").statusCode()).isEqualTo(200);

		HttpResponse<String> third = chat("-1");
		assertThat(third.statusCode()).isEqualTo(429);
		assertThat(third.headers().firstValue("Retry-After")).isPresent();
		assertThat(third.body()).contains("rate_limit_exceeded");
		assertThat(meters.get("infergate.tenant.rate.limited").tag("scope", "priority-band").counter().count())
			.isEqualTo(1.0);

		assertThat(chat(null).statusCode()).isEqualTo(200);
		assertThat(chat(null).statusCode()).isEqualTo(200);
		assertThat(chat(null).statusCode()).isEqualTo(200);
	}

	@Test
	void aTypeNameThatNoTypeHasIsAProblemNamingTheTypesThatExist() {
		LimitTypes types = new LimitTypes(List.of(new PriorityBandLimit()),
				Map.of("priority", Map.of("sheddable", new Limits(10L, null, null))));

		assertThat(types.problems()).containsExactly(
				"infergate.rate-limits.by.priority: no limit type named 'priority'; limit types: priority-band");
	}

	private HttpResponse<String> chat(String priority) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama", "hello", false, 4)));
		if (priority != null) {
			request.header(AuthenticateFilter.PRIORITY_HEADER, priority);
		}
		return Http.send(request.build());
	}
}
