package io.infergate.gateway.picker.kubernetes;

import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** InferenceObjectives read from a stand-in API server, following their changes. */
class KubernetesInferenceObjectivesTests {

	private KubernetesMockServer apiServer;

	private KubernetesClient kubernetes;

	private KubernetesInferenceObjectives objectives;

	@BeforeEach
	void start() {
		apiServer = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
				new KubernetesCrudDispatcher(), false);
		apiServer.init(InetAddress.getLoopbackAddress(), 0);
		kubernetes = apiServer.createClient();
		Map<String, Set<String>> pools = new LinkedHashMap<>();
		pools.put("models", Set.of("llama"));
		pools.put("serving", Set.of("qwen"));
		objectives = new KubernetesInferenceObjectives(kubernetes, pools);
		objectives.start();
	}

	@AfterEach
	void stop() {
		objectives.stop();
		kubernetes.close();
		apiServer.destroy();
	}

	@Test
	void anObjectivesPriorityFollowsItsChangesAndItsDeletion() {
		create("models", "premium", Map.of("priority", 10, "poolRef", Map.of("name", "llama")));
		await().atMost(Duration.ofSeconds(10)).until(() -> objectives.priority("premium").equals(OptionalInt.of(10)));

		create("models", "premium", Map.of("priority", -5, "poolRef", Map.of("name", "llama")));
		await().atMost(Duration.ofSeconds(10)).until(() -> objectives.priority("premium").equals(OptionalInt.of(-5)));

		api("models").withName("premium").delete();
		await().atMost(Duration.ofSeconds(10)).until(() -> objectives.priority("premium").isEmpty());
	}

	@Test
	void anObjectiveWithoutPriorityHasPriorityZero() {
		create("serving", "batch", Map.of("poolRef", Map.of("group", "inference.networking.k8s.io", "kind",
				"InferencePool", "name", "qwen")));

		await().atMost(Duration.ofSeconds(10)).until(() -> objectives.priority("batch").equals(OptionalInt.of(0)));
	}

	@Test
	void onlyObjectivesOfTheWatchedInferencePoolsCount() {
		create("models", "elsewhere", Map.of("priority", 3, "poolRef", Map.of("name", "qwen")));
		create("models", "mine", Map.of("priority", 4, "poolRef", Map.of("name", "llama")));
		create("other", "foreign", Map.of("priority", 5, "poolRef", Map.of("name", "llama")));

		await().atMost(Duration.ofSeconds(10)).until(() -> objectives.priority("mine").isPresent());
		assertThat(objectives.priority("elsewhere")).isEmpty();
		assertThat(objectives.priority("foreign")).isEmpty();
		assertThat(objectives.priority("unknown")).isEmpty();
	}

	private void create(String namespace, String name, Map<String, Object> spec) {
		GenericKubernetesResource objective = new GenericKubernetesResourceBuilder()
			.withApiVersion("inference.networking.x-k8s.io/v1alpha2")
			.withKind("InferenceObjective")
			.withNewMetadata()
			.withName(name)
			.withNamespace(namespace)
			.endMetadata()
			.withAdditionalProperties(Map.of("spec", spec))
			.build();
		api(namespace).resource(objective).createOr((existing) -> existing.update());
	}

	private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
			Resource<GenericKubernetesResource>> api(String namespace) {
		return kubernetes.genericKubernetesResources(KubernetesInferenceObjectives.INFERENCE_OBJECTIVES)
			.inNamespace(namespace);
	}
}
