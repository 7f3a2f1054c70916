package io.infergate.gateway.discovery;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;

import io.infergate.gateway.InfergateGatewayApplication;

import static org.assertj.core.api.Assertions.assertThatException;

/** A pool's InferencePool is one source of its endpoints among three, named in Kubernetes' own spelling. */
class InferencePoolStartupTests {

	@Test
	void aPoolWithAnInferencePoolAndAnotherSourceFailsTheStartNamingTheProperties() {
		assertThatException()
			.isThrownBy(() -> start("infergate.pools.llama.endpoints=http://127.0.0.1:9",
					"infergate.pools.llama.inference-pool=llama-pool"))
			.havingRootCause()
			.withMessage("infergate.pools.llama: set exactly one of 'endpoints' (a static list), "
					+ "'discovery-service-id' or 'inference-pool'");
	}

	@Test
	void anInferencePoolThatIsNotAKubernetesNameFailsTheStart() {
		assertThatException().isThrownBy(() -> start("infergate.pools.llama.inference-pool=models/llama/pool"))
			.havingRootCause()
			.withMessage("infergate.pools.llama.inference-pool: must be <name> or <namespace>/<name> (Kubernetes "
					+ "object names), got 'models/llama/pool'");
	}

	private static void start(String... properties) {
		new SpringApplicationBuilder(InfergateGatewayApplication.class)
			.properties("server.port=0", "management.server.port=0", "infergate.demo.enabled=false",
					"spring.main.banner-mode=off", "spring.cloud.kubernetes.client.master-url=http://127.0.0.1:9")
			.properties(properties)
			.run()
			.close();
	}
}
