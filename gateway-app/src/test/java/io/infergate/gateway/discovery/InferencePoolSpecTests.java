package io.infergate.gateway.discovery;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import io.infergate.routing.pool.FailureMode;

import static org.assertj.core.api.Assertions.assertThat;

class InferencePoolSpecTests {

	private static final Map<String, String> LLAMA = Map.of("app", "llama");

	@Test
	void readsSelectorTargetPortsAndFailureMode() {
		InferencePoolSpec spec = InferencePoolSpec.of(inferencePool(Map.of("selector",
				Map.of("matchLabels", Map.of("app", "llama", "tier", "a")), "targetPorts",
				List.of(Map.of("number", 8000), Map.of("number", 8001)), "endpointPickerRef",
				Map.of("name", "picker", "port", Map.of("number", 9002), "failureMode", "FailOpen"))));

		assertThat(spec.matchLabels()).isEqualTo(Map.of("app", "llama", "tier", "a"));
		assertThat(spec.targetPorts()).containsExactly(8000, 8001);
		assertThat(spec.failureMode()).contains(FailureMode.FAIL_OPEN);
	}

	@Test
	void aFailureModeTheObjectDoesNotGiveIsUnknown() {
		assertThat(InferencePoolSpec.of(inferencePool(Map.of("endpointPickerRef", Map.of("name", "picker"))))
			.failureMode()).isEmpty();
		assertThat(InferencePoolSpec.of(inferencePool(Map.of("endpointPickerRef", Map.of("failureMode",
				"FailClose")))).failureMode()).contains(FailureMode.FAIL_CLOSE);
	}

	@Test
	void everyTargetPortOfEveryReadySelectedPodIsAnEndpoint() {
		InferencePoolSpec spec = new InferencePoolSpec(LLAMA, List.of(8000, 8001), Optional.empty());

		List<URI> endpoints = spec.endpoints(List.of(pod("a", "10.0.0.1", LLAMA, true),
				pod("v6", "fd00::7", LLAMA, true), pod("other", "10.0.0.2", Map.of("app", "other"), true)));

		assertThat(endpoints).containsExactly(URI.create("http://10.0.0.1:8000"), URI.create("http://10.0.0.1:8001"),
				URI.create("http://[fd00::7]:8000"), URI.create("http://[fd00::7]:8001"));
	}

	@Test
	void aPodThatIsNotReadyHasNoIpOrIsTerminatingIsLeftOut() {
		InferencePoolSpec spec = new InferencePoolSpec(LLAMA, List.of(8000), Optional.empty());
		Pod terminating = new PodBuilder(pod("c", "10.0.0.3", LLAMA, true)).editMetadata()
			.withDeletionTimestamp(Instant.now().toString())
			.endMetadata()
			.build();

		assertThat(spec.endpoints(List.of(pod("a", "10.0.0.1", LLAMA, false), pod("b", null, LLAMA, true),
				terminating, pod("d", "10.0.0.4", LLAMA, true)))).containsExactly(URI.create("http://10.0.0.4:8000"));
	}

	@Test
	void anEmptySelectorSelectsNoPod() {
		InferencePoolSpec spec = new InferencePoolSpec(Map.of(), List.of(8000), Optional.empty());

		assertThat(spec.endpoints(List.of(pod("a", "10.0.0.1", LLAMA, true)))).isEmpty();
	}

	@Test
	void aReferenceWithoutNamespaceTakesTheDefaultOne() {
		assertThat(InferencePoolReference.parse("llama", "models")).isEqualTo(new InferencePoolReference("models", "llama"));
		assertThat(InferencePoolReference.parse("serving/llama", "models"))
			.isEqualTo(new InferencePoolReference("serving", "llama"));
	}

	private static GenericKubernetesResource inferencePool(Map<String, Object> spec) {
		return new GenericKubernetesResourceBuilder().withApiVersion("inference.networking.k8s.io/v1")
			.withKind("InferencePool")
			.withNewMetadata()
			.withName("llama")
			.endMetadata()
			.withAdditionalProperties(Map.of("spec", spec))
			.build();
	}

	static Pod pod(String name, String ip, Map<String, String> labels, boolean ready) {
		return new PodBuilder().withNewMetadata()
			.withName(name)
			.withLabels(labels)
			.endMetadata()
			.withNewStatus()
			.withPodIP(ip)
			.addNewCondition()
			.withType("Ready")
			.withStatus(ready ? "True" : "False")
			.endCondition()
			.endStatus()
			.build();
	}
}
