package io.infergate.gateway.discovery;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;

import io.infergate.routing.pool.FailureMode;

/**
 * What Infergate reads of an {@code InferencePool} ({@code inference.networking.k8s.io/v1}): the label selector of
 * its pods ({@code spec.selector.matchLabels}), the ports they serve on ({@code spec.targetPorts[].number}) and
 * {@code spec.endpointPickerRef.failureMode}.
 *
 * @param matchLabels Labels a pod must carry, every one, to be a member; an empty selector selects no pod.
 * @param targetPorts Ports of each member; every port is an endpoint of its own ({@code podIP:port}).
 * @param failureMode What the gateway in front of the picker does when the picker does not answer, when the object
 * says ({@code FailOpen} or {@code FailClose}).
 */
public record InferencePoolSpec(Map<String, String> matchLabels, List<Integer> targetPorts,
		Optional<FailureMode> failureMode) {

	/** The API group, version and plural of InferencePools. */
	public static final String GROUP = "inference.networking.k8s.io";

	public static final String VERSION = "v1";

	public static final String PLURAL = "inferencepools";

	/** The spec of {@code inferencePool}; missing or malformed fields read as empty. */
	public static InferencePoolSpec of(GenericKubernetesResource inferencePool) {
		Map<String, String> labels = new LinkedHashMap<>();
		if (inferencePool.get("spec", "selector", "matchLabels") instanceof Map<?, ?> matchLabels) {
			matchLabels.forEach((key, value) -> labels.put(String.valueOf(key), String.valueOf(value)));
		}
		List<Integer> ports = new ArrayList<>();
		if (inferencePool.get("spec", "targetPorts") instanceof List<?> targetPorts) {
			for (Object port : targetPorts) {
				if (port instanceof Map<?, ?> fields && fields.get("number") instanceof Number number) {
					ports.add(number.intValue());
				}
			}
		}
		Object failureMode = inferencePool.get("spec", "endpointPickerRef", "failureMode");
		return new InferencePoolSpec(Map.copyOf(labels), List.copyOf(ports), failureMode(failureMode));
	}

	private static Optional<FailureMode> failureMode(Object value) {
		if ("FailOpen".equals(value)) {
			return Optional.of(FailureMode.FAIL_OPEN);
		}
		if ("FailClose".equals(value)) {
			return Optional.of(FailureMode.FAIL_CLOSE);
		}
		return Optional.empty();
	}

	/**
	 * The endpoints of the selected pods that are ready, {@code http://<podIP>:<port>} for each target port, in the
	 * order of {@code pods} then of the ports.
	 */
	public List<URI> endpoints(Collection<Pod> pods) {
		List<URI> endpoints = new ArrayList<>();
		if (matchLabels.isEmpty()) {
			return endpoints;
		}
		for (Pod pod : pods) {
			if (selects(pod) && isReady(pod)) {
				String ip = pod.getStatus().getPodIP();
				String host = ip.contains(":") ? "[" + ip + "]" : ip;
				for (int port : targetPorts) {
					endpoints.add(URI.create("http://" + host + ":" + port));
				}
			}
		}
		return endpoints;
	}

	private boolean selects(Pod pod) {
		Map<String, String> labels = pod.getMetadata().getLabels();
		return labels != null && labels.entrySet().containsAll(matchLabels.entrySet());
	}

	/**
	 * Whether a pod takes traffic: its {@code Ready} condition is {@code True}, it has an IP and it is not being
	 * deleted (a terminating pod may still report ready while it drains).
	 */
	static boolean isReady(Pod pod) {
		if (pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null) {
			return false;
		}
		String ip = pod.getStatus().getPodIP();
		return ip != null && !ip.isBlank() && pod.getStatus().getConditions() != null && pod.getStatus()
			.getConditions()
			.stream()
			.anyMatch((condition) -> "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
	}
}
