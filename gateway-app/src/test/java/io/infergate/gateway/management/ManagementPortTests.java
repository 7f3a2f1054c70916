package io.infergate.gateway.management;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.WebFilterChainProxy;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The management port asks for the admin's credentials; the API port runs no security filter at all and keeps
 * answering OpenAI-style errors.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.pools.p.endpoints=http://127.0.0.1:9" })
class ManagementPortTests {

	/** Enough back-to-back requests that the lost read, at its rate with Reactor Netty 1.3.6, surely shows. */
	private static final int REQUESTS = 3_000;

	private static final int LEFT_WAITING_MILLIS = 5_000;

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

	/**
	 * Both ports keep answering a client that sends each request on a kept-alive connection the moment the previous
	 * answer has arrived. The server may then still be finishing the previous exchange when the next request comes in,
	 * and a server that buffers that request and never asks the socket for more leaves the client waiting for good:
	 * Reactor Netty 1.3.6 did (reactor/reactor-netty#4361), on the management port within the first few dozen requests
	 * of this mix (the probes' 200s followed by the security's immediate 401s), while the API port's own connection
	 * handler, which asks for the next request at each response's end, hid it there. The system tests met it as a
	 * request to the management port that timed out.
	 */
	@Test
	void theManagementPortAnswersEveryBackToBackRequestOnOneConnection() throws Exception {
		assertEveryRequestAnswered(managementPort,
				List.of("/actuator", "/actuator/inference", "/actuator/prometheus", "/actuator/health",
						"/actuator/metrics", "/admin/api/feed", "/admin/api/decisions", "/admin/assets/app.js",
						"/actuator/health/liveness", "/actuator/health/readiness", "/admin"));
	}

	@Test
	void theApiPortAnswersEveryBackToBackRequestOnOneConnection() throws Exception {
		assertEveryRequestAnswered(port, List.of("/v1/models", "/v1/nothing-here"));
	}

	private static void assertEveryRequestAnswered(int port, List<String> paths) throws Exception {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(LEFT_WAITING_MILLIS);
			socket.setTcpNoDelay(true);
			OutputStream out = socket.getOutputStream();
			InputStream in = socket.getInputStream();
			for (int i = 0; i < REQUESTS; i++) {
				String path = paths.get(i % paths.size());
				out.write(("GET " + path + " HTTP/1.1\r\nHost: gateway\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
				out.flush();
				String answer;
				try {
					answer = RawHttp.readResponse(in);
				}
				catch (SocketTimeoutException waiting) {
					fail("request " + (i + 1) + " of " + REQUESTS + " (GET " + path + ") on port " + port
							+ " got no answer in " + LEFT_WAITING_MILLIS + " ms");
					return;
				}
				assertThat(answer).as("the answer to request %d, GET %s", i + 1, path).startsWith("HTTP/1.1 ");
			}
		}
	}

	private String api(String path) {
		return "http://127.0.0.1:" + port + path;
	}

	private String management(String path) {
		return "http://127.0.0.1:" + managementPort + path;
	}
}
