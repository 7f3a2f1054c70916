package io.infergate.gateway.container;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ContainerHealthCheckTests {

	private static final List<String> GATEWAY = List.of("-XX:AOTCache=/app/gateway/gateway.aot",
			"-XX:MaxRAMPercentage=75", "-jar", "/app/gateway/gateway-app.jar");

	@Test
	void gatewayIsProbedOnItsLivenessGroupAtTheDefaultManagementPort() {
		assertThat(ContainerHealthCheck.healthUri(GATEWAY, Map.of()))
			.contains(URI.create("http://127.0.0.1:8081/actuator/health/liveness"));
	}

	@Test
	void gatewayManagementPortComesFromItsArgumentsBeforeTheEnvironment() {
		List<String> arguments = concat(GATEWAY, "--server.port=18080", "--management.server.port=18081");

		assertThat(ContainerHealthCheck.healthUri(arguments, Map.of("MANAGEMENT_SERVER_PORT", "9000")))
			.contains(URI.create("http://127.0.0.1:18081/actuator/health/liveness"));
	}

	@Test
	void gatewayManagementPortComesFromTheEnvironmentWhenNoArgumentSetsIt() {
		assertThat(ContainerHealthCheck.healthUri(GATEWAY, Map.of("MANAGEMENT_SERVER_PORT", "9000")))
			.contains(URI.create("http://127.0.0.1:9000/actuator/health/liveness"));
	}

	@Test
	void simulatorIsProbedOnTheLastPortItWasGiven() {
		List<String> arguments = List.of("-jar", "/app/model-server-sim.jar", "--host", "0.0.0.0", "--port", "8000",
				"--model", "m", "--port", "18002");

		assertThat(ContainerHealthCheck.healthUri(arguments, Map.of()))
			.contains(URI.create("http://127.0.0.1:18002/health"));
	}

	@Test
	void explicitHealthUrlWins() {
		assertThat(ContainerHealthCheck.healthUri(GATEWAY, Map.of("INFERGATE_HEALTH_URL", "http://127.0.0.1:7/h")))
			.contains(URI.create("http://127.0.0.1:7/h"));
	}

	@Test
	void otherProcessesHaveNoHealthUrl() {
		assertThat(ContainerHealthCheck.healthUri(List.of("-jar", "other.jar"), Map.of())).isEmpty();
		assertThat(ContainerHealthCheck.healthUri(List.of("-cp", "/app/gateway/gateway-app.jar", "Other"), Map.of()))
			.isEmpty();
	}

	private static List<String> concat(List<String> head, String... tail) {
		return Stream.concat(head.stream(), Arrays.stream(tail)).toList();
	}
}
