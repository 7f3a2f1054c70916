package io.infergate.sim;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class SimulatedModelServerTests {

	private final HttpClient client = HttpClient.newHttpClient();

	private static SimulatorConfig config(String model) {
		return SimulatorConfig.builder(model)
			.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).build())
			.build();
	}

	@Test
	void fourServersRunSideBySideEachOnItsOwnFreePort() throws Exception {
		List<SimulatedModelServer> servers = new ArrayList<>();
		try {
			for (int i = 0; i < 4; i++) {
				servers.add(new SimulatedModelServer(config("pod-" + i)).start());
			}
			Set<Integer> ports = new HashSet<>();
			for (SimulatedModelServer server : servers) {
				ports.add(server.port());
				assertThat(server.baseUrl()).isEqualTo("http://127.0.0.1:" + server.port());
				HttpResponse<String> health = this.client.send(
						HttpRequest.newBuilder(URI.create(server.baseUrl() + "/health")).build(),
						HttpResponse.BodyHandlers.ofString());
				assertThat(health.statusCode()).isEqualTo(200);
			}
			assertThat(ports).hasSize(4).doesNotContain(0);
		}
		finally {
			servers.forEach(SimulatedModelServer::close);
		}
	}

	@Test
	void closeReleasesThePortAndEveryThread() throws Exception {
		SimulatedModelServer server = new SimulatedModelServer(config("closing-pod")).start();
		int port = server.port();
		HttpResponse<String> reply = this.client.send(
				HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/completions"))
					.POST(HttpRequest.BodyPublishers.ofString("{\"prompt\":\"hi\",\"max_tokens\":2}"))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(reply.statusCode()).isEqualTo(200);

		server.close();

		try (ServerSocket rebound = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
			assertThat(rebound.getLocalPort()).isEqualTo(port);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
			.noneMatch((thread) -> thread.getName().contains("closing-pod")));
	}

	@Test
	void aPortInUseFailsStartWithTheAddressInTheMessage() throws IOException {
		try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			SimulatedModelServer server = new SimulatedModelServer(SimulatorConfig.builder("m")
				.port(taken.getLocalPort())
				.build());

			org.assertj.core.api.Assertions.assertThatThrownBy(server::start)
				.hasMessageContaining("127.0.0.1:" + taken.getLocalPort());
			server.close();
		}
	}
}
