package io.infergate.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPodsTest;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Client connections that send nothing, or send their request a byte at a time, are closed after the header or
 * body timeout; a stream that lasts longer than both is never cut.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.gateway.client.header-timeout=500ms", "infergate.gateway.client.body-timeout=500ms" })
class ClientConnectionDeadlinesTests extends SimulatedPodsTest {

	static SimulatedModelServer slow;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		// about 16 ms a token: 100 tokens take over a second and a half
		slow = sims.start("slow", PerfProfile.LLAMA_3_1_8B_A100, (engine) -> {
		});
		registry.add("infergate.pools.p.endpoints", () -> slow.baseUrl());
	}

	@BeforeEach
	void ready() {
		awaitReady("p");
	}

	/** Writes {@code trickle} a byte every 100 ms after {@code head}; whether the gateway closed the connection. */
	private boolean closedWhileTrickling(String head, String trickle) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			InputStream in = socket.getInputStream();
			out.write(head.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			for (byte b : trickle.getBytes(StandardCharsets.US_ASCII)) {
				try {
					out.write(b);
					out.flush();
				}
				catch (SocketException closed) {
					return true;
				}
				sleep(Duration.ofMillis(100));
				if (in.available() > 0) {
					return false;
				}
			}
			try {
				return in.read() == -1;
			}
			catch (SocketException closed) {
				return true;
			}
		}
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@Test
	void aConnectionThatSendsNothingIsClosed() throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(10_000);

			assertThat(socket.getInputStream().read()).isEqualTo(-1);
		}
	}

	@Test
	void aRequestHeadSentAByteAtATimeIsCut() throws IOException {
		assertThat(closedWhileTrickling("POST /v1/chat/completions HTTP/1.1\r\n",
				"Host: gateway\r\nContent-Type: application/json\r\nX-Slow: " + "s".repeat(100) + "\r\n\r\n"))
			.isTrue();
	}

	@Test
	void aRequestBodySentAByteAtATimeIsCut() throws IOException {
		String body = Http.chat("slow", "x".repeat(100), false, 4);
		assertThat(closedWhileTrickling("POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\n"
				+ "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n", body))
			.isTrue();
	}

	@Test
	void aStreamLongerThanBothTimeoutsIsNotCut() {
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(60))
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("slow", "take your time", true, 100)))
			.build());

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).endsWith("data: [DONE]\n\n");
	}

	@Test
	void aKeptAliveConnectionServesRequestsSentWithinTheHeaderTimeout() {
		for (int i = 0; i < 3; i++) {
			assertThat(Http.get(url("/v1/models")).statusCode()).isEqualTo(200);
			sleep(Duration.ofMillis(200));
		}
	}
}
