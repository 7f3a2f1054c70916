package io.infergate.gateway.discovery;

import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.picker.InferenceObjectives;
import io.infergate.gateway.picker.kubernetes.KubernetesInferenceObjectives;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.routing.pool.FailureMode;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pool whose endpoints are the ready pods of a Gateway API Inference Extension InferencePool, through a stand-in
 * API server: the pool follows the InferencePool's selector and target ports and its pods' readiness, and requests
 * reach the simulated pods it lists.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"spring.cloud.kubernetes.client.namespace=" + InferencePoolDiscoveryTests.NAMESPACE,
				"spring.cloud.kubernetes.client.trust-certs=true",
				"infergate.pools.llama.inference-pool=" + InferencePoolDiscoveryTests.INFERENCE_POOL,
				"infergate.models.llama.pool=llama", "infergate.models.llama.target-model=llama" })
class InferencePoolDiscoveryTests extends SimulatedPods {

	static final String NAMESPACE = "models";

	static final String INFERENCE_POOL = "llama-pool";

	static final Map<String, String> LLAMA = Map.of("app", "vllm-llama");

	static KubernetesMockServer apiServer;

	static KubernetesClient kubernetes;

	static SimulatedModelServer podA;

	static SimulatedModelServer podB;

	@Autowired
	InferencePoolWatch inferencePools;

	@Autowired
	InferenceObjectives objectives;

	@DynamicPropertySource
	static void apiServer(DynamicPropertyRegistry registry) {
		// pods as on a cluster: each on its own address, all on one port
		podA = sims.start(SimulatorConfig.builder("llama").host("127.0.0.2").port(0).build());
		podB = sims.start(SimulatorConfig.builder("llama").host("127.0.0.3").port(podA.port()).build());
		apiServer = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
				new KubernetesCrudDispatcher(), false);
		apiServer.init(InetAddress.getLoopbackAddress(), 0);
		kubernetes = apiServer.createClient();
		registry.add("spring.cloud.kubernetes.client.master-url", () -> apiServer.url("/"));
	}

	@AfterAll
	static void stopApiServer() {
		kubernetes.close();
		apiServer.destroy();
	}

	@BeforeEach
	void noInferencePoolAndNoPods() {
		inferencePoolsApi().list().getItems().forEach((pool) -> inferencePoolsApi().resource(pool).delete());
		kubernetes.pods().inNamespace(NAMESPACE).list().getItems()
			.forEach((pod) -> kubernetes.pods().inNamespace(NAMESPACE).resource(pod).delete());
		await().atMost(Duration.ofSeconds(30)).until(() -> poolEndpoints().isEmpty());
	}

	@Test
	void readyPodsOfTheInferencePoolBecomeThePoolAndServeRequests() {
		create(inferencePool(LLAMA, List.of(podA.port()), "FailClose"));
		create(pod("a", podA, LLAMA, true));
		create(pod("b", podB, LLAMA, true));
		create(pod("c", "127.0.0.4", Map.of("app", "other"), true));

		await().atMost(Duration.ofSeconds(30)).until(() -> poolEndpoints().equals(Set.of(id(podA), id(podB))));
		awaitReady("llama");
		HttpResponse<String> response = Http.postJson(url("/v1/chat/completions"), Http.chat("llama", "hi", false, 2));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("x-infergate-endpoint").orElseThrow()).isIn(id(podA), id(podB));
		assertThat(inferencePools.failureMode("llama")).contains(FailureMode.FAIL_CLOSE);
	}

	@Test
	void aPodThatStopsBeingReadyLeavesThePool() {
		create(inferencePool(LLAMA, List.of(podA.port()), "FailClose"));
		create(pod("a", podA, LLAMA, true));
		create(pod("b", podB, LLAMA, true));
		await().atMost(Duration.ofSeconds(30)).until(() -> poolEndpoints().equals(Set.of(id(podA), id(podB))));

		kubernetes.pods().inNamespace(NAMESPACE).resource(pod("b", podB, LLAMA, false)).update();

		await().atMost(Duration.ofSeconds(30)).until(() -> poolEndpoints().equals(Set.of(id(podA))));
	}

	@Test
	void theInferencePoolsSelectorAndTargetPortsAreFollowed() {
		Map<String, String> other = Map.of("app", "other");
		create(inferencePool(LLAMA, List.of(podA.port()), "FailClose"));
		create(pod("a", podA, LLAMA, true));
		create(pod("b", podB, other, true));
		await().atMost(Duration.ofSeconds(30)).until(() -> poolEndpoints().equals(Set.of(id(podA))));

		inferencePoolsApi().resource(inferencePool(other, List.of(podA.port()), "FailClose")).update();
		await().atMost(Duration.ofSeconds(30)).until(() -> poolEndpoints().equals(Set.of(id(podB))));

		inferencePoolsApi().resource(inferencePool(other, List.of(podA.port(), 9), "FailOpen")).update();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> poolEndpoints().equals(Set.of(id(podB), podB.config().host() + ":9")));
		assertThat(inferencePools.failureMode("llama")).contains(FailureMode.FAIL_OPEN);
		// the pool routes as the InferencePool says, whatever infergate.pools.llama.failure-mode is
		assertThat(endpoints.pool("llama").failureMode()).isEqualTo(FailureMode.FAIL_OPEN);
	}

	@Test
	void aMissingInferencePoolLeavesThePoolWithoutEndpointsUntilItIsCreated(CapturedOutput output) {
		create(pod("a", podA, LLAMA, true));

		await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> poolEndpoints().isEmpty());
		assertThat(inferencePools.failureMode("llama")).isEmpty();
		assertThat(output).contains("Pool 'llama': InferencePool " + NAMESPACE + "/" + INFERENCE_POOL
				+ " does not exist; the pool has no endpoints until it does");

		create(inferencePool(LLAMA, List.of(podA.port()), "FailOpen"));

		await().atMost(Duration.ofSeconds(30)).until(() -> poolEndpoints().equals(Set.of(id(podA))));
		assertThat(inferencePools.failureMode("llama")).contains(FailureMode.FAIL_OPEN);
		assertThat(endpoints.pool("llama").failureMode()).isEqualTo(FailureMode.FAIL_OPEN);
	}

	@Test
	void inferenceObjectivesOfTheInferencePoolGiveTheirPriority() {
		kubernetes.genericKubernetesResources(KubernetesInferenceObjectives.INFERENCE_OBJECTIVES)
			.inNamespace(NAMESPACE)
			.resource(objective("premium", Map.of("priority", 10, "poolRef", Map.of("name", INFERENCE_POOL))))
			.create();

		assertThat(objectives).isInstanceOf(KubernetesInferenceObjectives.class);
		await().atMost(Duration.ofSeconds(30)).until(() -> objectives.priority("premium").orElse(0) == 10);
	}

	private static GenericKubernetesResource objective(String name, Map<String, Object> spec) {
		return new GenericKubernetesResourceBuilder().withApiVersion("inference.networking.x-k8s.io/v1alpha2")
			.withKind("InferenceObjective")
			.withNewMetadata()
			.withName(name)
			.withNamespace(NAMESPACE)
			.endMetadata()
			.withAdditionalProperties(Map.of("spec", spec))
			.build();
	}

	private static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
			Resource<GenericKubernetesResource>> inferencePoolsApi() {
		return kubernetes.genericKubernetesResources(InferencePoolWatch.INFERENCE_POOLS).inNamespace(NAMESPACE);
	}

	private static void create(GenericKubernetesResource inferencePool) {
		inferencePoolsApi().resource(inferencePool).create();
	}

	private static void create(Pod pod) {
		kubernetes.pods().inNamespace(NAMESPACE).resource(pod).create();
	}

	/** The InferencePool of this test's name, as a GIE v1 object. */
	private static GenericKubernetesResource inferencePool(Map<String, String> selector, List<Integer> ports,
			String failureMode) {
		return new GenericKubernetesResourceBuilder().withApiVersion("inference.networking.k8s.io/v1")
			.withKind("InferencePool")
			.withNewMetadata()
			.withName(INFERENCE_POOL)
			.withNamespace(NAMESPACE)
			.endMetadata()
			.withAdditionalProperties(Map.of("spec", Map.of("selector", Map.of("matchLabels", selector),
					"targetPorts", ports.stream().map((port) -> Map.of("number", port)).toList(),
					"endpointPickerRef", Map.of("name", "infergate-picker", "port", Map.of("number", 9002),
							"failureMode", failureMode))))
			.build();
	}

	private static Pod pod(String name, SimulatedModelServer server, Map<String, String> labels, boolean ready) {
		return pod(name, server.config().host(), labels, ready);
	}

	private static Pod pod(String name, String ip, Map<String, String> labels, boolean ready) {
		return new PodBuilder(InferencePoolSpecTests.pod(name, ip, labels, ready)).editMetadata()
			.withNamespace(NAMESPACE)
			.endMetadata()
			.build();
	}

	private static String id(SimulatedModelServer pod) {
		return pod.config().host() + ":" + pod.port();
	}

	private Set<String> poolEndpoints() {
		return endpoints.pool("llama").endpoints().stream().map((e) -> e.id().toString()).collect(Collectors.toSet());
	}
}
