package io.infergate.gateway.management;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.WebFilterChainProxy;

import io.infergate.gateway.support.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The management port asks for the admin's credentials; the API port runs no security filter at all and keeps
 * answering OpenAI-style errors.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.pools.p.endpoints=http://127.0.0.1:9" })
class ManagementPortTests {

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Autowired
	ApplicationContext context;

	@Test
	void theApplicationsContextHoldsNoSecurityFilterChain() {
		assertThat(context.getBeanNamesForType(WebFilterChainProxy.class)).isEmpty();
		assertThat(context.getBeanNamesForType(SecurityWebFilterChain.class)).isEmpty();
	}

	@Test
	void apiResponsesCarryNoSecurityHeadersAndNoChallenge() {
		HttpResponse<String> models = Http.get(api("/v1/models"));
		HttpResponse<String> unknown = Http.get(api("/actuator/inference"));

		assertThat(models.statusCode()).isEqualTo(200);
		assertThat(models.headers().firstValue("X-Content-Type-Options")).isEmpty();
		assertThat(unknown.statusCode()).isEqualTo(404);
		assertThat(unknown.headers().firstValue("WWW-Authenticate")).isEmpty();
		assertThat(unknown.body()).contains("\"code\":\"unknown_url\"");
	}

	@Test
	void managementEndpointsNeedTheAdminsCredentials() {
		assertThat(Http.get(management("/actuator/inference")).statusCode()).isEqualTo(401);
		assertThat(Http.get(management("/actuator/prometheus")).statusCode()).isEqualTo(401);
		assertThat(Http.getAsAdmin(management("/actuator/inference")).statusCode()).isEqualTo(200);
		assertThat(Http.getAsAdmin(management("/actuator/prometheus")).statusCode()).isEqualTo(200);
	}

	@Test
	void livenessAndReadinessStayOpenForProbes() {
		assertThat(Http.get(management("/actuator/health/liveness")).statusCode()).isEqualTo(200);
		assertThat(Http.get(management("/actuator/health/readiness")).statusCode()).isIn(200, 503);
	}

	@Test
	void theModelsListIsServedOnTheApiPortOnly() {
		assertThat(Http.getAsAdmin(management("/v1/models")).statusCode()).isEqualTo(404);
		assertThat(Http.getAsAdmin(management("/v1/models/anything")).statusCode()).isEqualTo(404);
		assertThat(Http.get(api("/v1/models")).statusCode()).isEqualTo(200);
	}

	private String api(String path) {
		return "http://127.0.0.1:" + port + path;
	}

	private String management(String path) {
		return "http://127.0.0.1:" + managementPort + path;
	}
}
