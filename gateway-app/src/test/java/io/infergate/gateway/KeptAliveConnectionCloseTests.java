package io.infergate.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.RawHttp;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A kept-alive connection idle past the header timeout is closed, whatever its last request was: one answered only
 * after its body was read, or one answered before the end of its (empty) body was read. A request a client sends
 * just as the gateway closes it is either answered or meets a closed connection at once: the client is never left
 * waiting. Which of the two it meets depends on whether its bytes arrive before the close; a client that keeps idle
 * connections shorter than the header timeout never meets the close (README, "Slow or stuck peers"). A request
 * pipelined behind another one that asks to close is answered after it, and the connection closes after the second.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.gateway.client.header-timeout=" + KeptAliveConnectionCloseTests.HEADER_TIMEOUT_MILLIS + "ms" })
class KeptAliveConnectionCloseTests extends SimulatedPods {

	static final long HEADER_TIMEOUT_MILLIS = 500;

	/** How long the client waits for an answer or a close before it counts as left waiting. */
	private static final int LEFT_WAITING_MILLIS = 10_000;

	/** Answered by the gateway itself, at once: before the end of the request's empty body is read. */
	private static final String MODELS = "GET /v1/models HTTP/1.1\r\nHost: gateway\r\n\r\n";

	private static final String UNKNOWN_PATH = "GET /v1/nothing-here HTTP/1.1\r\nHost: gateway\r\n\r\n";

	/** Proxied to the pod once its body is read. */
	private static final String CHAT = chat();

	private static String chat() {
		String body = Http.chat("pod", "hello", false, 1);
		return "POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n"
				+ "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
	}

	static SimulatedModelServer pod;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		pod = sims.start("pod", PerfProfile.ZERO, (engine) -> {
		});
		registry.add("infergate.pools.p.endpoints", () -> pod.baseUrl());
	}

	@BeforeEach
	void ready() {
		awaitReady("p");
	}

	@Test
	void aConnectionIdleForTwiceTheHeaderTimeoutIsClosedWhateverItsLastRequest() throws Exception {
		for (String first : List.of(CHAT, MODELS, UNKNOWN_PATH)) {
			assertThat(secondRequestAfterIdling(first, 2 * HEADER_TIMEOUT_MILLIS))
				.as("after %s", first.substring(0, first.indexOf('\r')))
				.isEqualTo("closed");
		}
	}

	@Test
	void aRequestSentAsTheIdleConnectionClosesIsAnsweredOrMeetsAnImmediateClose() throws Exception {
		List<String> outcomes = new ArrayList<>();
		for (long offsetMillis = -40; offsetMillis <= 40; offsetMillis += 5) {
			outcomes.add(offsetMillis + " ms: " + secondRequestAfterIdling(CHAT, HEADER_TIMEOUT_MILLIS + offsetMillis));
		}

		assertThat(outcomes).as("the second request on a connection idle around the header timeout")
			.allMatch((outcome) -> outcome.endsWith("answered 200") || outcome.endsWith("closed"));
	}

	/**
	 * Sends {@code first}, reads its answer whole, idles {@code idleMillis}, sends a request for the model list on
	 * the same connection: "answered STATUS", "closed" (end of stream or reset), or "left waiting".
	 */
	@Test
	void aPipelinedRequestAskingToCloseIsAnsweredAfterTheOneBeforeItAndThenTheConnectionCloses() throws Exception {
		String closing = CHAT.replace("Host: gateway\r\n", "Host: gateway\r\nConnection: close\r\n");
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(LEFT_WAITING_MILLIS);
			OutputStream out = socket.getOutputStream();
			InputStream in = socket.getInputStream();
			out.write((CHAT + closing).getBytes(StandardCharsets.UTF_8));
			out.flush();

			String first = RawHttp.readResponse(in);
			String second = RawHttp.readResponse(in);

			assertThat(first).startsWith("HTTP/1.1 200 ").doesNotContainIgnoringCase("connection: close");
			assertThat(second).as("the pipelined request is answered").startsWith("HTTP/1.1 200 ")
				.containsIgnoringCase("connection: close");
			assertThat(in.read()).as("then the connection closes").isEqualTo(-1);
		}
	}

	private String secondRequestAfterIdling(String first, long idleMillis) throws IOException, InterruptedException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(LEFT_WAITING_MILLIS);
			OutputStream out = socket.getOutputStream();
			InputStream in = socket.getInputStream();
			out.write(first.getBytes(StandardCharsets.UTF_8));
			out.flush();
			assertThat(RawHttp.readResponse(in)).startsWith("HTTP/1.1 ");
			Thread.sleep(idleMillis);
			try {
				out.write(MODELS.getBytes(StandardCharsets.US_ASCII));
				out.flush();
				String answer = RawHttp.readResponse(in);
				return (answer == null) ? "closed" : "answered " + answer.substring(9, 12);
			}
			catch (SocketTimeoutException waiting) {
				return "left waiting";
			}
			catch (SocketException reset) {
				return "closed";
			}
		}
	}
}
