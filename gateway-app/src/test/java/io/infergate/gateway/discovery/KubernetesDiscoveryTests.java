package io.infergate.gateway.discovery;

import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Set;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.EndpointSubsetBuilder;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.EndpointsBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pool whose endpoints come from a Kubernetes Service, through Spring Cloud Kubernetes and a stand-in API server:
 * the Service's ready addresses become the pool's endpoints, and follow the Endpoints object as it changes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				// what a pod's service-account environment would tell Spring Boot and the client
				"spring.main.cloud-platform=kubernetes", "spring.cloud.kubernetes.client.namespace=" + KubernetesDiscoveryTests.NAMESPACE,
				"spring.cloud.kubernetes.client.trust-certs=true",
				"infergate.pools.llama.discovery-service-id=" + KubernetesDiscoveryTests.SERVICE,
				"infergate.pools.llama.discovery-refresh-interval=200ms",
				"infergate.models.llama.pool=llama", "infergate.models.llama.target-model=llama" })
class KubernetesDiscoveryTests extends SimulatedPods {

	static final String NAMESPACE = "models";

	static final String SERVICE = "llama-pods";

	static KubernetesMockServer apiServer;

	static KubernetesClient kubernetes;

	static SimulatedModelServer podA;

	static SimulatedModelServer podB;

	@DynamicPropertySource
	static void apiServer(DynamicPropertyRegistry registry) {
		// pods as on a cluster: each on its own address, all on one port
		podA = sims.start(SimulatorConfig.builder("llama").host("127.0.0.2").port(0).build());
		podB = sims.start(SimulatorConfig.builder("llama").host("127.0.0.3").port(podA.port()).build());
		apiServer = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
				new KubernetesCrudDispatcher(), false);
		apiServer.init(InetAddress.getLoopbackAddress(), 0);
		kubernetes = apiServer.createClient();
		kubernetes.services()
			.inNamespace(NAMESPACE)
			.resource(new ServiceBuilder().withNewMetadata()
				.withName(SERVICE)
				.withNamespace(NAMESPACE)
				.endMetadata()
				.withNewSpec()
				.withClusterIP("None")
				.addToSelector("app.kubernetes.io/name", "llama")
				.addNewPort()
				.withName("http")
				.withPort(8000)
				.withNewTargetPort(podA.port())
				.endPort()
				.endSpec()
				.build())
			.create();
		kubernetes.endpoints().inNamespace(NAMESPACE).resource(endpoints(podA, podB)).create();
		registry.add("spring.cloud.kubernetes.client.master-url", () -> apiServer.url("/"));
	}

	@AfterAll
	static void stopApiServer() {
		kubernetes.close();
		apiServer.destroy();
	}

	/** The Service's Endpoints with the ready addresses of {@code pods}. */
	private static Endpoints endpoints(SimulatedModelServer... pods) {
		EndpointSubsetBuilder subset = new EndpointSubsetBuilder().addNewPort()
			.withName("http")
			.withPort(podA.port())
			.endPort();
		for (SimulatedModelServer pod : pods) {
			subset.addNewAddress().withIp(pod.config().host()).endAddress();
		}
		return new EndpointsBuilder().withNewMetadata()
			.withName(SERVICE)
			.withNamespace(NAMESPACE)
			.endMetadata()
			.withSubsets(subset.build())
			.build();
	}

	private static String id(SimulatedModelServer pod) {
		return pod.config().host() + ":" + pod.port();
	}

	private Set<String> poolEndpoints() {
		return endpoints.pool("llama").endpoints().stream().map((e) -> e.id().toString()).collect(Collectors.toSet());
	}

	@Test
	void serviceEndpointsBecomeThePoolAndFollowItsChanges() {
		await().atMost(Duration.ofSeconds(30)).until(() -> poolEndpoints().equals(Set.of(id(podA), id(podB))));
		awaitReady("llama");

		HttpResponse<String> response = Http.postJson(url("/v1/chat/completions"), Http.chat("llama", "hi", false, 2));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("x-infergate-endpoint").orElseThrow()).isIn(id(podA), id(podB));

		kubernetes.endpoints().inNamespace(NAMESPACE).resource(endpoints(podB)).update();
		await().atMost(Duration.ofSeconds(30)).until(() -> poolEndpoints().equals(Set.of(id(podB))));
		assertThat(endpoints.pool("llama").endpoints()).allMatch(Endpoint::isReady);
	}
}
