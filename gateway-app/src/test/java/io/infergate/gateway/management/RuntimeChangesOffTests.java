package io.infergate.gateway.management;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;

import io.infergate.gateway.support.Http;
import io.infergate.routing.scheduling.config.SchedulingProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/** Without {@code infergate.management.admin.allow-runtime-changes}, the dashboard cannot change a running profile. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.pools.p.endpoints=http://127.0.0.1:9" })
class RuntimeChangesOffTests {

	@LocalManagementPort
	int managementPort;

	@Autowired
	SchedulingProfiles profiles;

	@Test
	void changesAreRefusedAndTheListSaysTheyAreOff() {
		String before = profiles.defaultProfile().weights().toString();

		HttpResponse<String> refused = Http.send(HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/admin/api/profiles/default/weights"))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", Http.basic(Http.ADMIN, Http.ADMIN_PASSWORD))
			.header("Content-Type", "application/json")
			.header("X-Infergate-Dashboard", "1")
			.POST(HttpRequest.BodyPublishers.ofString("{\"weights\":{\"estimated-ttft\":2}}"))
			.build());

		assertThat(refused.statusCode()).isEqualTo(403);
		assertThat(refused.body()).contains("\"type\":\"permission_error\"")
			.contains("infergate.management.admin.allow-runtime-changes=true");
		assertThat(profiles.defaultProfile().weights()).hasToString(before);
		assertThat(Http.getAsAdmin("http://127.0.0.1:" + managementPort + "/admin/api/changes").body())
			.isEqualTo("{\"enabled\":false,\"changes\":[]}");
	}
}
