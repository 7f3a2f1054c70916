package io.infergate.gateway.management;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;

import io.infergate.gateway.support.Http;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code infergate.management.prometheus.access=open}. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.pools.p.endpoints=http://127.0.0.1:9", "infergate.management.prometheus.access=open" })
class PrometheusOpenAccessTests {

	@LocalManagementPort
	int managementPort;

	@Test
	void anyoneReadsPrometheusAndNothingElse() {
		assertThat(Http.get(management("/actuator/prometheus")).statusCode()).isEqualTo(200);
		assertThat(Http.get(management("/actuator/inference")).statusCode()).isEqualTo(401);
	}

	private String management(String path) {
		return "http://127.0.0.1:" + managementPort + path;
	}
}
