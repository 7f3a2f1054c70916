package io.infergate.gateway.management;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;

import io.infergate.gateway.support.Http;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code infergate.management.prometheus.access=bearer}: Prometheus's own token, or the admin. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.pools.p.endpoints=http://127.0.0.1:9", "infergate.management.prometheus.access=bearer",
				"infergate.management.prometheus.bearer-token-sha256="
						+ PrometheusBearerAccessTests.TOKEN_SHA256 })
class PrometheusBearerAccessTests {

	/** {@code printf %s scrape-token | sha256sum} */
	static final String TOKEN_SHA256 = "41369aae32e5cc50e94b626f9f49cef39b6a57243708bcaa06662f19bdae5483";

	@LocalManagementPort
	int managementPort;

	@Test
	void theTokenOrTheAdminReadPrometheus() {
		assertThat(withBearer("/actuator/prometheus", "scrape-token").statusCode()).isEqualTo(200);
		assertThat(Http.getAsAdmin(management("/actuator/prometheus")).statusCode()).isEqualTo(200);
	}

	@Test
	void anotherTokenOrNoneIsAskedForTheToken() {
		HttpResponse<String> wrong = withBearer("/actuator/prometheus", "not-the-token");
		HttpResponse<String> none = Http.get(management("/actuator/prometheus"));

		assertThat(wrong.statusCode()).isEqualTo(401);
		assertThat(none.statusCode()).isEqualTo(401);
		assertThat(none.headers().allValues("WWW-Authenticate")).contains("Bearer realm=\"Infergate management\"");
	}

	@Test
	void theTokenOpensPrometheusOnly() {
		assertThat(withBearer("/actuator/inference", "scrape-token").statusCode()).isEqualTo(401);
	}

	private HttpResponse<String> withBearer(String path, String token) {
		return Http.send(HttpRequest.newBuilder(URI.create(management(path)))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", "Bearer " + token)
			.build());
	}

	private String management(String path) {
		return "http://127.0.0.1:" + managementPort + path;
	}
}
