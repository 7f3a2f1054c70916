package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.RecordingRelay;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * API keys and limits end to end, over real HTTP, against a simulated vLLM pod behind a relay that records what
 * the pod receives: bad credentials, forbidden models and oversized headers, what reaches the model server, the
 * streamed bytes a client receives, and tokens charged from real usage.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false", "infergate.auth.enabled=true",
				"infergate.auth.keys.team-a.tenant=a", "infergate.auth.keys.team-a.models=llama,other-*",
				"infergate.auth.keys.team-a.limits.rpm=1000", "infergate.auth.tenants.a.limits.tpm=1000000",
				"infergate.pools.p.upstream-api-key=pool-token", "infergate.models.secret-model.pool=p",
				"infergate.models.secret-model.target-model=llama", "logging.level.io.infergate=DEBUG" })
class AuthAndLimitsTests extends SimulatedPods {

	static final String SECRET = "sk-team-a-7f3c9e1d2b4a";

	static final String WRONG_SECRET = "sk-wrong-5e8d1c7a9b3f";

	static SimulatedModelServer pod;

	static RecordingRelay relay;

	@DynamicPropertySource
	static void pool(DynamicPropertyRegistry registry) {
		pod = sims.start("llama");
		relay = new RecordingRelay(pod.baseUrl());
		registry.add("infergate.pools.p.endpoints", relay::baseUrl);
		registry.add("infergate.auth.keys.team-a.sha256", () -> ApiKeyHash.sha256Hex(SECRET));
	}

	@AfterAll
	static void stopRelay() {
		relay.close();
	}

	@BeforeEach
	void podReady() {
		awaitReady("p");
	}

	private HttpResponse<String> chat(String authorization, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (authorization != null) {
			request.header("Authorization", authorization);
		}
		return Http.send(request.build());
	}

	@Test
	void badCredentialsForbiddenModelsAndOversizedHeadersAreOpenAiShaped4xxAndNoSecretIsLogged(CapturedOutput output) {
		String body = Http.chat("llama", "hi", false, 2);
		String hugeSecret = "sk-huge-" + "q".repeat(64 * 1024);

		HttpResponse<String> none = chat(null, body);
		HttpResponse<String> wrong = chat("Bearer " + WRONG_SECRET, body);
		HttpResponse<String> malformed = chat("Token " + SECRET, body);
		HttpResponse<String> forbidden = chat("Bearer " + SECRET, Http.chat("secret-model", "hi", false, 2));
		HttpResponse<String> oversized = chat("Bearer " + hugeSecret, body);
		HttpResponse<String> allowed = chat("Bearer " + SECRET, body);

		for (HttpResponse<String> response : List.of(none, wrong, malformed)) {
			assertThat(response.statusCode()).isEqualTo(401);
			assertThat(response.body()).startsWith("{\"error\":{").contains("\"code\":\"invalid_api_key\"");
		}
		assertThat(forbidden.statusCode()).isEqualTo(403);
		assertThat(forbidden.body()).contains("\"code\":\"model_not_allowed\"");
		assertThat(oversized.statusCode()).isEqualTo(431);
		assertThat(oversized.headers().firstValue("content-type")).hasValue("application/json");
		assertThat(oversized.body()).startsWith("{\"error\":{").contains("\"code\":\"request_headers_too_large\"");
		assertThat(allowed.statusCode()).isEqualTo(200);
		assertThat(output.getAll()).doesNotContain(SECRET).doesNotContain(WRONG_SECRET).doesNotContain("qqqqqqqqqqqqqqqq");
	}

	@Test
	void modelsNeedAKeyAndListOnlyWhatTheKeyMayCall() {
		HttpResponse<String> anonymous = Http.get(url("/v1/models"));
		HttpResponse<String> listed = models("/v1/models");
		HttpResponse<String> allowed = models("/v1/models/llama");
		HttpResponse<String> hidden = models("/v1/models/secret-model");

		assertThat(anonymous.statusCode()).isEqualTo(401);
		assertThat(anonymous.body()).contains("\"code\":\"invalid_api_key\"");
		assertThat(listed.statusCode()).isEqualTo(200);
		assertThat(listed.body()).contains("\"id\":\"llama\"").doesNotContain("secret-model");
		assertThat(allowed.statusCode()).isEqualTo(200);
		assertThat(hidden.statusCode()).isEqualTo(404);
		assertThat(hidden.body()).contains("\"code\":\"model_not_found\"");
	}

	private HttpResponse<String> models(String path) {
		return Http.send(HttpRequest.newBuilder(URI.create(url(path)))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", "Bearer " + SECRET)
			.GET()
			.build());
	}

	@Test
	void theModelServerNeverSeesTheClientsCredentialButThePoolsOwn() {
		HttpRequest request = HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.header("api-key", SECRET)
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama", "which headers", false, 2)))
			.build();
		int before = relay.generationHeaders().size();

		HttpResponse<String> response = Http.send(request);

		assertThat(response.statusCode()).isEqualTo(200);
		Map<String, List<String>> received = relay.generationHeaders().get(before);
		assertThat(received.get("authorization")).containsExactly("Bearer pool-token");
		assertThat(received).doesNotContainKey("api-key");
		assertThat(received.toString()).doesNotContain(SECRET);
	}

	@Test
	void aStreamReachesTheClientByteForByteAsTheServerSendsItWhetherOrNotTheGatewayAskedForUsage() {
		String asked = "{\"model\":\"llama\",\"stream\":true,\"max_tokens\":6,\"stream_options\":{\"include_usage\":true},"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"identical\"}]}";
		String notAsked = "{\"model\":\"llama\",\"stream\":true,\"max_tokens\":6,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"identical\"}]}";

		for (String body : List.of(notAsked, asked)) {
			String[] pair = sameSecond(body);

			assertThat(pair[0]).isEqualTo(pair[1]);
			assertThat(pair[0]).endsWith("data: [DONE]\n\n");
			assertThat(pair[0].contains("\"usage\"")).isEqualTo(body == asked);
		}
	}

	/** The stream of {@code body} through the gateway and straight from the pod, created in the same second. */
	private String[] sameSecond(String body) {
		for (int attempt = 0;; attempt++) {
			String id = "identity-" + attempt + "-" + System.nanoTime();
			String viaGateway = stream(url("/v1/chat/completions"), id, body);
			String direct = stream(pod.baseUrl() + "/v1/chat/completions", id, body);
			if (attempt == 4 || created(viaGateway).equals(created(direct))) {
				return new String[] { viaGateway, direct };
			}
		}
	}

	private static String created(String stream) {
		int at = stream.indexOf("\"created\":");
		return (at < 0) ? "" : stream.substring(at, stream.indexOf(',', at));
	}

	private static String stream(String url, String requestId, String body) {
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + SECRET)
			.header("X-Request-Id", requestId)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.body();
	}

	@Test
	void tenantsAreChargedTheTokensTheServerReportsForStreamedAndNonStreamedRequests() {
		JsonNode before = tenant("a");
		String prompt = "count my tokens please";
		JsonNode usage = JsonMapper.shared().readTree(chat("Bearer " + SECRET, Http.chat("llama", prompt, false, 7)).body())
			.get("usage");
		chat("Bearer " + SECRET, Http.chat("llama", prompt, true, 7));
		String withUsage = chat("Bearer " + SECRET, "{\"model\":\"llama\",\"stream\":true,\"max_tokens\":7,"
				+ "\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt
				+ "\"}]}").body();

		long promptTokens = usage.get("prompt_tokens").longValue();
		assertThat(withUsage).contains("\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":7");
		JsonNode after = tenant("a");
		assertThat(after.get("inputTokens").longValue() - before.get("inputTokens").longValue())
			.isEqualTo(3 * promptTokens);
		assertThat(after.get("outputTokens").longValue() - before.get("outputTokens").longValue()).isEqualTo(3 * 7);
		assertThat(after.get("requests").longValue() - before.get("requests").longValue()).isEqualTo(3);
		assertThat(after.get("limits").toString()).contains("\"scope\":\"tenant\"").contains("\"limit\":\"tpm\"")
			.contains("\"scope\":\"key\"").contains("\"subject\":\"team-a\"").contains("\"limit\":\"rpm\"");
	}

	private JsonNode tenant(String name) {
		JsonNode report = JsonMapper.shared().readTree(Http.getAsAdmin(managementUrl("/actuator/inference")).body());
		for (JsonNode tenant : report.get("tenants")) {
			if (name.equals(tenant.get("name").stringValue())) {
				return tenant;
			}
		}
		throw new AssertionError("no tenant " + name + " in " + report.get("tenants"));
	}
}
