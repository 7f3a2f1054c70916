package io.infergate.systemtest;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static io.infergate.systemtest.GatewayProcess.get;
import static io.infergate.systemtest.GatewayProcess.getAsAdmin;
import static org.assertj.core.api.Assertions.assertThat;

/** The packaged gateway's management port over plain HTTP: who may read what, and what the API port keeps. */
class ManagementPortSecurityTests {

	static GatewayProcess gateway;

	@BeforeAll
	static void startGateway() throws Exception {
		gateway = GatewayProcess.start("management-security");
	}

	@AfterAll
	static void stopGateway() throws Exception {
		gateway.close();
	}

	@Test
	void theDashboardAsksForCredentialsWithTheBrowsersOwnPrompt() {
		HttpResponse<String> response = get(gateway.management("/admin"));

		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"Infergate management\"");
		assertThat(response.headers().firstValue("Location")).isEmpty();
	}

	@Test
	void withCredentialsAdminAnswersThePageItselfWithItsSecurityHeaders() {
		HttpResponse<String> response = getAsAdmin(gateway.management("/admin"));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/html"));
		assertThat(response.body()).contains("<base href=\"/admin/\">").contains("assets/app.js");
		assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
		assertThat(response.headers().firstValue("Content-Security-Policy")).hasValueSatisfying((policy) -> assertThat(
				policy).contains("script-src 'self'", "style-src 'self'", "connect-src 'self'", "default-src 'none'"));
	}

	@Test
	void wrongCredentialsAreRefused() {
		HttpResponse<String> response = get(gateway.management("/actuator/inference"), "Authorization",
				"Basic YWRtaW46bm90LXRoZS1wYXNzd29yZA==");

		assertThat(response.statusCode()).isEqualTo(401);
	}

	@Test
	void everyManagementEndpointButLivenessAndReadinessNeedsCredentials() {
		for (String path : new String[] { "/actuator", "/actuator/inference", "/actuator/prometheus",
				"/actuator/health", "/actuator/metrics", "/admin/api/feed", "/admin/api/decisions",
				"/admin/assets/app.js" }) {
			assertThat(get(gateway.management(path)).statusCode()).as(path).isEqualTo(401);
		}
		assertThat(get(gateway.management("/actuator/health/liveness")).statusCode()).isEqualTo(200);
		assertThat(get(gateway.management("/actuator/health/readiness")).statusCode()).isEqualTo(200);
	}

	@Test
	void theAdminReadsInferenceAndPrometheus() {
		assertThat(getAsAdmin(gateway.management("/actuator/inference")).body()).contains("\"pools\"");
		assertThat(getAsAdmin(gateway.management("/actuator/prometheus")).body())
			.contains("infergate_scrape");
	}

	@Test
	void theApiModelsListIsNotServedOnTheManagementPort() {
		assertThat(getAsAdmin(gateway.management("/v1/models")).statusCode()).isEqualTo(404);
		assertThat(get(gateway.api("/v1/models")).body()).contains("demo-llama");
	}

	@Test
	void theApiPortKnowsNothingOfManagementAndAnswersOpenAiErrors() {
		for (String path : new String[] { "/admin", "/actuator/inference", "/no-such-path" }) {
			HttpResponse<String> response = get(gateway.api(path));
			assertThat(response.statusCode()).as(path).isEqualTo(404);
			assertThat(response.headers().firstValue("WWW-Authenticate")).as(path).isEmpty();
			// the management port's security headers stay there; the API's own errors are never sniffed
			assertThat(response.headers().firstValue("Content-Security-Policy")).as(path).isEmpty();
			assertThat(response.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
			assertThat(response.headers().firstValue("Content-Type")).as(path).hasValue("application/json");
			assertThat(response.body()).as(path).startsWith("{\"error\":{\"message\":");
		}
	}

	@Test
	void noGeneratedPasswordIsLoggedWhenAHashIsConfigured() {
		assertThat(gateway.output()).doesNotContain("generated password");
	}
}
