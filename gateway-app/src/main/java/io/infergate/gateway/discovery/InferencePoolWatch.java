package io.infergate.gateway.discovery;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;

import io.infergate.routing.discovery.InferencePoolSource;
import io.infergate.routing.discovery.PoolInstanceSuppliers;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.FailureMode;
import io.infergate.routing.pool.PoolProperties;

/**
 * The endpoints of pools that name an {@code inference-pool}, from the Kubernetes API: for as long as a pool's
 * endpoints are subscribed to, two informers watch the namespace's InferencePools and Pods, and every change to the
 * named InferencePool (its selector, target ports) or to a pod (labels, readiness, IP, deletion) emits the pool's
 * endpoints again: {@code http://<podIP>:<port>} for every ready, selected pod and every target port. An
 * InferencePool that does not exist leaves the pool without endpoints (logged once) until it appears.
 * <p>
 * The informers keep their own caches, re-listing after a broken watch; their handlers are also re-run from the
 * cache every {@link #RESYNC_PERIOD}, a safety net rather than a poll.
 */
public class InferencePoolWatch implements InferencePoolSource {

	private static final Log logger = LogFactory.getLog(InferencePoolWatch.class);

	/** How often the informers re-deliver their caches to the handlers. */
	public static final Duration RESYNC_PERIOD = Duration.ofMinutes(5);

	/** The API of InferencePools. */
	public static final ResourceDefinitionContext INFERENCE_POOLS = new ResourceDefinitionContext.Builder()
		.withGroup(InferencePoolSpec.GROUP)
		.withVersion(InferencePoolSpec.VERSION)
		.withPlural(InferencePoolSpec.PLURAL)
		.withKind("InferencePool")
		.withNamespaced(true)
		.build();

	private final KubernetesClient client;

	private final String defaultNamespace;

	private final Map<String, FailureMode> failureModes = new ConcurrentHashMap<>();

	private final EndpointRegistry registry;

	public InferencePoolWatch(KubernetesClient client) {
		this(client, null);
	}

	/**
	 * @param registry where a pool's InferencePool's failure mode is applied to the pool ({@code null}: only
	 * {@link #failureMode(String)} says it)
	 */
	public InferencePoolWatch(KubernetesClient client, EndpointRegistry registry) {
		this.client = client;
		this.registry = registry;
		this.defaultNamespace = (client.getNamespace() != null) ? client.getNamespace() : "default";
	}

	/** The InferencePool a pool names, in the client's namespace when the setting names none. */
	public InferencePoolReference reference(PoolProperties.Pool settings) {
		return InferencePoolReference.parse(settings.inferencePool(), defaultNamespace);
	}

	/**
	 * The {@code spec.endpointPickerRef.failureMode} of the InferencePool that {@code pool} (an Infergate pool name)
	 * names, as last seen; empty when the pool names none, its endpoints are not being watched, the InferencePool
	 * does not exist or does not say. When empty, the pool's configured {@code failure-mode} applies.
	 */
	public Optional<FailureMode> failureMode(String pool) {
		return Optional.ofNullable(failureModes.get(pool));
	}

	/** Records the InferencePool's failure mode of {@code pool} ({@code null}: it states none) and applies it. */
	private void failureMode(String pool, FailureMode mode) {
		FailureMode before = (mode != null) ? failureModes.put(pool, mode) : failureModes.remove(pool);
		EndpointPool endpointPool = (registry != null && before != mode) ? registry.pool(pool) : null;
		if (endpointPool != null) {
			endpointPool.discoveredFailureMode(mode);
		}
	}

	@Override
	public ServiceInstanceListSupplier forPool(String pool, PoolProperties.Pool settings) {
		InferencePoolReference reference = reference(settings);
		return PoolInstanceSuppliers.of(pool,
				Flux.<List<ServiceInstance>>create((sink) -> new Watch(pool, reference, sink).start())
					.distinctUntilChanged());
	}

	/** One subscription's informers, stopped when it is disposed. */
	private final class Watch {

		private final String pool;

		private final InferencePoolReference reference;

		private final FluxSink<List<ServiceInstance>> sink;

		private SharedIndexInformer<GenericKubernetesResource> inferencePools;

		private SharedIndexInformer<Pod> pods;

		private boolean missing;

		Watch(String pool, InferencePoolReference reference, FluxSink<List<ServiceInstance>> sink) {
			this.pool = pool;
			this.reference = reference;
			this.sink = sink;
		}

		void start() {
			long resyncMillis = RESYNC_PERIOD.toMillis();
			inferencePools = client.genericKubernetesResources(INFERENCE_POOLS)
				.inNamespace(reference.namespace())
				.runnableInformer(resyncMillis);
			pods = client.pods().inNamespace(reference.namespace()).runnableInformer(resyncMillis);
			inferencePools.addEventHandler(new AnyChange<>(this::emit)).exceptionHandler(this::retry);
			pods.addEventHandler(new AnyChange<>(this::emit)).exceptionHandler(this::retry);
			sink.onDispose(this::stop);
			CompletableFuture.allOf(inferencePools.start().toCompletableFuture(), pods.start().toCompletableFuture())
				.thenRun(this::emit);
			logger.info("Pool '" + pool + "': watching InferencePool " + reference + " and its pods");
		}

		private boolean retry(boolean started, Throwable failure) {
			logger.warn("Pool '" + pool + "': watching InferencePool " + reference + " failed, retrying: "
					+ failure.getMessage());
			return true;
		}

		/** The pool's endpoints now, once both caches are filled. */
		private synchronized void emit() {
			if (sink.isCancelled() || !inferencePools.hasSynced() || !pods.hasSynced()) {
				return;
			}
			GenericKubernetesResource inferencePool = inferencePools.getStore()
				.getByKey(Cache.namespaceKeyFunc(reference.namespace(), reference.name()));
			if (inferencePool == null) {
				failureMode(pool, null);
				if (!missing) {
					missing = true;
					logger.warn("Pool '" + pool + "': InferencePool " + reference
							+ " does not exist; the pool has no endpoints until it does");
				}
				sink.next(List.of());
				return;
			}
			if (missing) {
				missing = false;
				logger.info("Pool '" + pool + "': InferencePool " + reference + " exists");
			}
			InferencePoolSpec spec = InferencePoolSpec.of(inferencePool);
			failureMode(pool, spec.failureMode().orElse(null));
			sink.next(spec.endpoints(pods.getStore().list())
				.stream()
				.sorted()
				.map((URI uri) -> PoolInstanceSuppliers.toInstance(pool, EndpointId.of(uri), uri))
				.toList());
		}

		private void stop() {
			inferencePools.stop();
			pods.stop();
			failureMode(pool, null);
		}
	}
}
