package io.infergate.gateway.picker.kubernetes;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

import io.infergate.gateway.discovery.AnyChange;
import io.infergate.gateway.discovery.InferencePoolWatch;
import io.infergate.gateway.picker.InferenceObjectives;
import io.infergate.routing.discovery.PoolEndpointSynchronizer;

/**
 * The Gateway API Inference Extension's {@code InferenceObjective}s ({@code inference.networking.x-k8s.io/v1alpha2})
 * of the InferencePools Infergate's pools name, watched in those pools' namespaces: an objective's priority is its
 * {@code spec.priority} (unset: 0), already in Infergate's convention (higher is more critical, negative is
 * sheddable). An objective counts when its {@code spec.poolRef} names one of those InferencePools in its own
 * namespace; when two namespaces have an objective of one name, the first namespace given wins.
 */
public class KubernetesInferenceObjectives implements InferenceObjectives, SmartLifecycle {

	private static final Log logger = LogFactory.getLog(KubernetesInferenceObjectives.class);

	/** The API of InferenceObjectives. */
	public static final ResourceDefinitionContext INFERENCE_OBJECTIVES = new ResourceDefinitionContext.Builder()
		.withGroup("inference.networking.x-k8s.io")
		.withVersion("v1alpha2")
		.withPlural("inferenceobjectives")
		.withKind("InferenceObjective")
		.withNamespaced(true)
		.build();

	private final KubernetesClient client;

	private final Map<String, Set<String>> inferencePoolsByNamespace;

	private final Map<String, SharedIndexInformer<GenericKubernetesResource>> informers = new LinkedHashMap<>();

	/** Replaced whole on each change, so a lookup is one map read. */
	private volatile Map<String, Integer> priorities = Map.of();

	/**
	 * @param inferencePoolsByNamespace the names of the InferencePools whose objectives count, by namespace, in the
	 * order namespaces are consulted
	 */
	public KubernetesInferenceObjectives(KubernetesClient client, Map<String, Set<String>> inferencePoolsByNamespace) {
		this.client = client;
		this.inferencePoolsByNamespace = inferencePoolsByNamespace;
	}

	@Override
	public OptionalInt priority(String name) {
		Integer priority = (name != null) ? priorities.get(name) : null;
		return (priority != null) ? OptionalInt.of(priority) : OptionalInt.empty();
	}

	@Override
	public synchronized void start() {
		long resyncMillis = InferencePoolWatch.RESYNC_PERIOD.toMillis();
		for (String namespace : inferencePoolsByNamespace.keySet()) {
			SharedIndexInformer<GenericKubernetesResource> informer = client.genericKubernetesResources(
					INFERENCE_OBJECTIVES)
				.inNamespace(namespace)
				.runnableInformer(resyncMillis);
			informer.addEventHandler(new AnyChange<>(this::refresh)).exceptionHandler((started, failure) -> {
				logger.warn("Watching InferenceObjectives in namespace " + namespace + " failed, retrying: "
						+ failure.getMessage());
				return true;
			});
			informers.put(namespace, informer);
			informer.start();
		}
	}

	private synchronized void refresh() {
		Map<String, Integer> next = new HashMap<>();
		informers.forEach((namespace, informer) -> {
			Set<String> inferencePools = inferencePoolsByNamespace.get(namespace);
			for (GenericKubernetesResource objective : informer.getStore().list()) {
				if (inferencePools.contains(objective.<String>get("spec", "poolRef", "name"))
						&& isInferencePool(objective.get("spec", "poolRef", "kind"))) {
					next.putIfAbsent(objective.getMetadata().getName(), priorityOf(objective));
				}
			}
		});
		priorities = Map.copyOf(next);
	}

	private static boolean isInferencePool(Object kind) {
		return kind == null || "InferencePool".equals(kind);
	}

	private static int priorityOf(GenericKubernetesResource objective) {
		return (objective.get("spec", "priority") instanceof Number priority) ? priority.intValue() : 0;
	}

	@Override
	public synchronized void stop() {
		informers.values().forEach(SharedIndexInformer::stop);
		informers.clear();
		priorities = Map.of();
	}

	@Override
	public synchronized boolean isRunning() {
		return !informers.isEmpty();
	}

	@Override
	public int getPhase() {
		return PoolEndpointSynchronizer.PHASE;
	}
}
