package io.infergate.gateway;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Connections beyond {@code infergate.gateway.client.max-connections} are closed as they open. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.pools.p.endpoints=http://127.0.0.1:9",
				"infergate.gateway.client.max-connections=2" })
class ClientConnectionCapTests {

	@LocalServerPort
	int port;

	private static final byte[] GET_MODELS = "GET /v1/models HTTP/1.1\r\nHost: gateway\r\n\r\n"
		.getBytes(StandardCharsets.US_ASCII);

	@Test
	void aConnectionBeyondTheMaximumIsClosedAndOneFreedIsTakenAgain() throws IOException {
		try (Socket first = new Socket("127.0.0.1", port); Socket second = new Socket("127.0.0.1", port)) {
			first.getOutputStream().write(GET_MODELS);
			assertThat(first.getInputStream().read()).as("the first is served").isNotEqualTo(-1);
			second.getOutputStream().write(GET_MODELS);
			assertThat(second.getInputStream().read()).as("the second is served").isNotEqualTo(-1);

			try (Socket third = new Socket("127.0.0.1", port)) {
				third.setSoTimeout(10_000);

				assertThat(third.getInputStream().read()).as("the third is closed").isEqualTo(-1);
			}
		}
		// the gateway notices the two closes shortly after they happen
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			try (Socket again = new Socket("127.0.0.1", port)) {
				again.setSoTimeout(10_000);
				again.getOutputStream().write(GET_MODELS);

				assertThat(again.getInputStream().read()).as("served once the others closed").isNotEqualTo(-1);
			}
		});
	}
}
