package io.infergate.gateway.model;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.context.SmartLifecycle;
import org.springframework.web.reactive.function.client.WebClient;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointLifecycleListener;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.model.ServedModelRoutes;
import io.infergate.routing.pool.EndpointRegistry;

/**
 * The models each endpoint says it serves on {@code GET /v1/models}, read when the endpoint appears and then
 * every refresh interval. A model id with a {@code parent} other than itself is a LoRA adapter of that parent,
 * as vLLM lists them.
 */
public class ServedModels implements ServedModelRoutes, EndpointLifecycleListener, SmartLifecycle {

	private static final Log logger = LogFactory.getLog(ServedModels.class);

	private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(5);

	private final EndpointRegistry registry;

	private final WebClient webClient;

	private final Duration refreshInterval;

	/** endpoint → (model id → parent model id, equal to the id for a base model). */
	private final Map<EndpointId, Map<String, String>> modelsByEndpoint = new ConcurrentHashMap<>();

	private volatile Disposable refresher;

	public ServedModels(EndpointRegistry registry, WebClient.Builder webClient, Duration refreshInterval) {
		this.registry = registry;
		this.webClient = webClient.build();
		this.refreshInterval = refreshInterval;
		registry.addListener(this);
	}

	@Override
	public void endpointAdded(EndpointPool pool, Endpoint endpoint) {
		fetch(endpoint).subscribe();
	}

	@Override
	public void endpointRemoved(EndpointPool pool, Endpoint endpoint) {
		modelsByEndpoint.remove(endpoint.id());
	}

	/**
	 * The route of {@code model} if exactly one pool's endpoints serve it, or {@code null} when none or several
	 * do.
	 */
	public ModelRoute resolve(String model) {
		String pool = null;
		String parent = null;
		for (EndpointPool candidate : registry.pools()) {
			for (Endpoint endpoint : candidate.endpoints()) {
				Map<String, String> served = modelsByEndpoint.get(endpoint.id());
				if (served != null && served.containsKey(model)) {
					if (pool != null && !pool.equals(candidate.name())) {
						return null;
					}
					pool = candidate.name();
					parent = served.get(model);
					break;
				}
			}
		}
		if (pool == null) {
			return null;
		}
		boolean adapter = parent != null && !parent.equals(model);
		return adapter ? new ModelRoute(model, pool, parent, model) : new ModelRoute(model, pool, model, null);
	}

	/** Every model id some endpoint serves, in discovery order. */
	public Set<String> modelIds() {
		Set<String> ids = new LinkedHashSet<>();
		for (EndpointPool pool : registry.pools()) {
			for (Endpoint endpoint : pool.endpoints()) {
				ids.addAll(modelsByEndpoint.getOrDefault(endpoint.id(), Map.of()).keySet());
			}
		}
		return ids;
	}

	private Mono<Void> fetch(Endpoint endpoint) {
		return webClient.get()
			.uri(endpoint.baseUri().resolve("/v1/models"))
			.retrieve()
			.bodyToMono(JsonNode.class)
			.timeout(FETCH_TIMEOUT)
			.doOnNext((body) -> modelsByEndpoint.put(endpoint.id(), parse(body)))
			.doOnError((ex) -> logger.debug("Could not read /v1/models of " + endpoint.id() + ": " + ex.getMessage()))
			.onErrorComplete()
			.then();
	}

	private static Map<String, String> parse(JsonNode body) {
		Map<String, String> models = new LinkedHashMap<>();
		for (JsonNode model : body.path("data")) {
			String id = model.path("id").asString(null);
			if (id != null) {
				String parent = model.path("parent").asString(null);
				models.put(id, (parent != null && !parent.isEmpty()) ? parent : id);
			}
		}
		return Collections.unmodifiableMap(models);
	}

	@Override
	public void start() {
		refresher = Flux.interval(refreshInterval, refreshInterval)
			.onBackpressureDrop()
			.concatMap((tick) -> Flux.fromIterable(registry.pools())
				.flatMapIterable(EndpointPool::endpoints)
				.flatMap(this::fetch, 8))
			.subscribe();
	}

	@Override
	public void stop() {
		Disposable current = refresher;
		if (current != null) {
			current.dispose();
			refresher = null;
		}
	}

	@Override
	public boolean isRunning() {
		return refresher != null;
	}
}
