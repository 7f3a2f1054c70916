package io.infergate.gateway.picker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.InfergateGatewayApplication;
import io.infergate.gateway.demo.DemoModeEnvironmentPostProcessor;
import io.infergate.gateway.picker.EnvoyDataPlane.Relayed;
import io.infergate.gateway.picker.EnvoyDataPlane.RequestAnswer;
import io.infergate.gateway.support.Http;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * The picker alone ({@code infergate.gateway.enabled=false}), in demo mode: it picks among the embedded demo pods,
 * and the server port serves no API.
 */
@ExtendWith(OutputCaptureExtension.class)
class EndpointPickerAloneTests {

	@Test
	void inDemoModeThePickerAlonePicksAmongTheDemoPodsAndTheApiPortServesNothing() throws Exception {
		try (ConfigurableApplicationContext picker = new SpringApplicationBuilder(InfergateGatewayApplication.class)
			.run("--server.port=0", "--management.server.port=0", "--infergate.gateway.enabled=false",
					"--infergate.endpoint-picker.enabled=true", "--infergate.endpoint-picker.port=0",
					"--infergate.endpoint-picker.health-port=0")) {
			EndpointRegistry registry = picker.getBean(EndpointRegistry.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> registry.pool(DemoModeEnvironmentPostProcessor.POOL)
					.endpoints()
					.stream()
					.filter(Endpoint::isReady)
					.count() == 4);
			Set<String> demoPods = registry.pool(DemoModeEnvironmentPostProcessor.POOL)
				.endpoints()
				.stream()
				.map((endpoint) -> endpoint.id().toString())
				.collect(Collectors.toSet());
			int apiPort = Integer.parseInt(picker.getEnvironment().getProperty("local.server.port"));
			assertThat(Http.postJson("http://127.0.0.1:" + apiPort + "/v1/chat/completions",
					Http.chat("demo-llama", "hi", false, 2)).statusCode()).isEqualTo(404);
			assertThat(Http.get("http://127.0.0.1:" + apiPort + "/v1/models").statusCode()).isEqualTo(404);

			try (EnvoyDataPlane envoy = new EnvoyDataPlane(picker.getBean(PickerServer.class).port())) {
				byte[] body = Http.chat("demo-llama", "Which pod?", true, 5).getBytes(StandardCharsets.UTF_8);
				EnvoyDataPlane.Stream stream = envoy.open()
					.requestHeaders("/v1/chat/completions", Map.of(), null, false)
					.requestBody(body, true);
				RequestAnswer answer = stream.awaitRequestAnswer(false);
				assertThat(answer.destination()).isIn(demoPods);
				Relayed relayed = stream.forward("/v1/chat/completions", answer);
				assertThat(relayed.status()).isEqualTo(200);
				assertThat(relayed.body()).contains("data: [DONE]");
			}
		}
	}

	@Test
	void withTheApiAndThePickerBothOffTheStartFailsNamingBoth(CapturedOutput output) {
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(InfergateGatewayApplication.class)
			.run("--server.port=0", "--management.server.port=0", "--infergate.gateway.enabled=false").close());
		assertThat(output).contains("infergate.gateway.enabled is false and infergate.endpoint-picker.enabled is not "
				+ "true: nothing would serve requests");
	}
}
