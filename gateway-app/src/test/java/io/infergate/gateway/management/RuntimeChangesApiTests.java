package io.infergate.gateway.management;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;

import io.infergate.gateway.support.Http;
import io.infergate.routing.scheduling.config.SchedulingProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's runtime changes over HTTP on the management port, with {@code allow-runtime-changes} on: behind
 * the admin's login and the dashboard's header, validated whole, audited, revertible.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.pools.p.endpoints=http://127.0.0.1:9", "infergate.pools.p.profile=llm-d",
				"infergate.management.admin.allow-runtime-changes=true" })
@ExtendWith(OutputCaptureExtension.class)
class RuntimeChangesApiTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@LocalManagementPort
	int managementPort;

	@Autowired
	SchedulingProfiles profiles;

	private String management(String path) {
		return "http://127.0.0.1:" + managementPort + path;
	}

	private HttpResponse<String> post(String path, String body, boolean admin, boolean dashboardHeader) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(management(path)))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (admin) {
			request.header("Authorization", Http.basic(Http.ADMIN, Http.ADMIN_PASSWORD));
		}
		if (dashboardHeader) {
			request.header("X-Infergate-Dashboard", "1");
		}
		return Http.send(request.build());
	}

	@Test
	void applyAndRevertChangeTheRunningProfileAndAreListed(CapturedOutput output) {
		HttpResponse<String> applied = post("/admin/api/profiles/llm-d/weights",
				"{\"weights\":{\"prefix-cache\":0,\"queue\":1.5}}", true, true);

		assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
		JsonNode change = JSON.readTree(applied.body());
		assertThat(change.path("by").asString()).isEqualTo(Http.ADMIN);
		assertThat(change.path("profile").asString()).isEqualTo("llm-d");
		assertThat(change.path("before").path("prefix-cache").asDouble()).isEqualTo(3.0);
		assertThat(change.path("after").path("prefix-cache").asDouble()).isZero();
		assertThat(profiles.get("llm-d").weights()).containsEntry("prefix-cache", 0.0).containsEntry("queue", 1.5);
		JsonNode config = JSON.readTree(Http.getAsAdmin(management("/admin/api/config")).body());
		assertThat(config.path("profiles").path("llm-d").path("weights").path("queue").asDouble()).isEqualTo(1.5);
		assertThat(output).contains("Runtime change #" + change.path("id").asLong() + " by admin: scheduling profile "
				+ "'llm-d' weights {queue=2.0, kv-cache=2.0, prefix-cache=3.0} -> {queue=1.5, kv-cache=2.0, "
				+ "prefix-cache=0.0}");

		HttpResponse<String> reverted = post("/admin/api/changes/" + change.path("id").asLong() + "/revert", "", true,
				true);

		assertThat(reverted.statusCode()).as(reverted.body()).isEqualTo(200);
		assertThat(JSON.readTree(reverted.body()).path("reverts").asLong()).isEqualTo(change.path("id").asLong());
		assertThat(profiles.get("llm-d").weights()).containsEntry("prefix-cache", 3.0).containsEntry("queue", 2.0);
		JsonNode listed = JSON.readTree(Http.getAsAdmin(management("/admin/api/changes")).body());
		assertThat(listed.path("enabled").asBoolean()).isTrue();
		assertThat(listed.path("changes").get(0).path("reverts").asLong()).isEqualTo(change.path("id").asLong());
	}

	@Test
	void badChangesAreRefusedWithAReasonAndChangeNothing() {
		String before = profiles.get("llm-d").weights().toString();

		HttpResponse<String> notJson = post("/admin/api/profiles/llm-d/weights", "{weights", true, true);
		HttpResponse<String> unknownScorer = post("/admin/api/profiles/llm-d/weights",
				"{\"weights\":{\"queue\":1,\"lora\":2}}", true, true);
		HttpResponse<String> negative = post("/admin/api/profiles/llm-d/weights", "{\"weights\":{\"queue\":-1}}",
				true, true);
		HttpResponse<String> text = post("/admin/api/profiles/llm-d/weights", "{\"weights\":{\"queue\":\"high\"}}",
				true, true);
		HttpResponse<String> unknownProfile = post("/admin/api/profiles/fastest/weights",
				"{\"weights\":{\"queue\":1}}", true, true);
		HttpResponse<String> unknownChange = post("/admin/api/changes/999/revert", "", true, true);

		for (HttpResponse<String> response : new HttpResponse[] { notJson, unknownScorer, negative, text,
				unknownProfile }) {
			assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
			assertThat(JSON.readTree(response.body()).path("error").path("type").asString())
				.isEqualTo("invalid_request_error");
		}
		assertThat(unknownScorer.body()).contains("has no scorer 'lora'");
		assertThat(unknownChange.statusCode()).isEqualTo(404);
		assertThat(profiles.get("llm-d").weights()).hasToString(before);
	}

	@Test
	void aChangeNeedsTheAdminAndTheDashboardsHeader() {
		String before = profiles.get("llm-d").weights().toString();

		assertThat(post("/admin/api/profiles/llm-d/weights", "{\"weights\":{\"queue\":1}}", false, true).statusCode())
			.isEqualTo(401);
		// a cross-site form post: the admin's browser would send the credentials, but not the header
		assertThat(post("/admin/api/profiles/llm-d/weights", "{\"weights\":{\"queue\":1}}", true, false).statusCode())
			.isEqualTo(403);
		assertThat(profiles.get("llm-d").weights()).hasToString(before);
	}
}
