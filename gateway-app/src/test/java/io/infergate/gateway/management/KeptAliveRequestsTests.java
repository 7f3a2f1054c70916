package io.infergate.gateway.management;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.infergate.gateway.support.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Both ports keep answering a client that sends each request on a kept-alive connection the moment the previous
 * answer has arrived. The server may then still be finishing the previous exchange when the next request comes in,
 * and a server that buffers that request and never asks the socket for more leaves the client waiting for good:
 * Reactor Netty 1.3.6 did (reactor/reactor-netty#4361), on the management port within the first few dozen requests
 * of this mix (the probes' 200s followed by the security's immediate 401s), while the API port's own connection
 * handler, which asks for the next request at each response's end, hid it there. The system tests met it as a
 * request to the management port that timed out.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.pools.p.endpoints=http://127.0.0.1:9" })
class KeptAliveRequestsTests {

	/** Enough back-to-back requests that the lost read, at its rate with Reactor Netty 1.3.6, surely shows. */
	private static final int REQUESTS = 3_000;

	private static final int LEFT_WAITING_MILLIS = 5_000;

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Test
	void theManagementPortAnswersEveryBackToBackRequestOnOneConnection() throws Exception {
		assertEveryRequestAnswered(managementPort, List.of("/actuator", "/actuator/inference", "/actuator/prometheus", "/actuator/health", "/actuator/metrics", "/admin/api/feed", "/admin/api/decisions", "/admin/assets/app.js", "/actuator/health/liveness", "/actuator/health/readiness", "/admin"));
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
}
