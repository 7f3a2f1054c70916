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
import io.infergate.gateway.support.SimulatedPods;
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
class ClientConnectionDeadlinesTests extends SimulatedPods {

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
	void aKeptAliveConnectionServesRequestsSentWithinTheHeaderTimeout() throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(10_000);
			for (int i = 0; i < 3; i++) {
				socket.getOutputStream()
					.write("GET /v1/models HTTP/1.1\r\nHost: gateway\r\n\r\n".getBytes(StandardCharsets.US_ASCII));

				// every answer comes on the one connection the test opened
				assertThat(oneResponse(socket.getInputStream())).as("answer %d", i).startsWith("HTTP/1.1 200");
				sleep(Duration.ofMillis(200));
			}
		}
	}

	/** One HTTP/1.1 response read off {@code in}, head and body; what came before the stream ended if it did. */
	private static String oneResponse(InputStream in) throws IOException {
		StringBuilder head = new StringBuilder();
		while (!head.toString().endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b == -1) {
				return head.toString();
			}
			head.append((char) b);
		}
		String lowerHead = head.toString().toLowerCase(java.util.Locale.ROOT);
		StringBuilder body = new StringBuilder();
		if (lowerHead.contains("transfer-encoding: chunked")) {
			for (int size; (size = Integer.parseInt(line(in).trim(), 16)) > 0;) {
				body.append(new String(in.readNBytes(size), StandardCharsets.UTF_8));
				line(in);
			}
			line(in);
		}
		else {
			int at = lowerHead.indexOf("content-length:");
			int length = Integer.parseInt(lowerHead.substring(at + 15, lowerHead.indexOf('\r', at)).trim());
			body.append(new String(in.readNBytes(length), StandardCharsets.UTF_8));
		}
		return head + body.toString();
	}

	private static String line(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		for (int b; (b = in.read()) != -1 && b != '\n';) {
			line.append((char) b);
		}
		return line.toString();
	}

	/** What the gateway answers on one connection to {@code requests} sent back to back, until it stops. */
	private String answersTo(String requests) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(3_000);
			socket.getOutputStream().write(requests.getBytes(StandardCharsets.US_ASCII));
			StringBuilder answers = new StringBuilder();
			byte[] buffer = new byte[8192];
			try {
				for (int read; (read = socket.getInputStream().read(buffer)) != -1;) {
					answers.append(new String(buffer, 0, read, StandardCharsets.US_ASCII));
				}
			}
			catch (java.net.SocketTimeoutException quiet) {
				// the gateway has nothing more to say on this connection
			}
			return answers.toString();
		}
	}

	@Test
	void aRequestPipelinedAfterOneAnsweredAtOnceIsAnswered() throws IOException {
		String unknownPath = "GET /v1/nothing-here HTTP/1.1\r\nHost: gateway\r\n\r\n";
		String models = "GET /v1/models HTTP/1.1\r\nHost: gateway\r\n\r\n";

		String answers = answersTo(unknownPath + models + unknownPath);

		assertThat(answers.split("HTTP/1.1 ", -1)).hasSize(4);
		assertThat(answers).startsWith("HTTP/1.1 404").contains("HTTP/1.1 200");
	}

	@Test
	void aDeclaredOversizedBodyIsAnswered413BeforeTheConnectionClosesWhileTheClientStillSends() throws Exception {
		for (int attempt = 0; attempt < 5; attempt++) {
			try (Socket socket = new Socket("127.0.0.1", port)) {
				socket.setSoTimeout(10_000);
				OutputStream out = socket.getOutputStream();
				out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n"
						+ "Content-Length: " + (64 * 1024 * 1024) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
				Thread sender = new Thread(() -> {
					try {
						for (int i = 0; i < 64; i++) {
							out.write(new byte[64 * 1024]);
						}
					}
					catch (IOException closed) {
						// the gateway stopped reading
					}
				});
				sender.start();

				byte[] head = socket.getInputStream().readNBytes(12);

				assertThat(new String(head, StandardCharsets.US_ASCII)).as("attempt " + attempt).isEqualTo("HTTP/1.1 413");
				sender.join(10_000);
			}
		}
	}
}
