package io.infergate.routing.pool;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import io.infergate.routing.tokenization.TokenizerSettings;

/**
 * The model-server pools, {@code infergate.pools.<name>.*}. A pool's name is the service id the gateway routes to
 * ({@code lb://<name>}), so it must be a valid host name label.
 *
 * @param pools The model-server pools by name.
 */
@Validated
@ConfigurationProperties("infergate")
public record PoolProperties(@Valid Map<String, Pool> pools) {

	public PoolProperties {
		pools = unmodifiable(pools);
	}

	/**
	 * The pools configured in {@code binder}'s environment, empty when none, for code that runs before the
	 * properties are bound (environment post-processors).
	 */
	public static Map<String, Pool> configuredPools(Binder binder) {
		return binder.bind("infergate.pools", Bindable.mapOf(String.class, Pool.class)).orElse(Map.of());
	}

	/** {@code map} in its order, unmodifiable; empty when {@code null}. */
	private static <V> Map<String, V> unmodifiable(Map<String, V> map) {
		return (map != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(map)) : Map.of();
	}

	/**
	 * One pool.
	 *
	 * @param engine The engine the pool's servers run; picks the metric mapping.
	 * @param endpoints Static endpoint base URIs, e.g. {@code http://10.0.0.5:8000}. Exclusive with
	 * discovery-service-id.
	 * @param discoveryServiceId A Spring Cloud discovery service id whose instances are the pool's endpoints.
	 * @param discoveryRefreshInterval How often discovered instances are re-read.
	 * @param profile The scheduling profile; when unset, {@code infergate.scheduling.default-profile}.
	 * @param failureMode What to do when scheduling fails while ready endpoints exist.
	 * @param scrape How the pool's {@code /metrics} endpoints are polled.
	 * @param kvEvents Subscription to every endpoint's KV-cache event stream.
	 * @param upstreamApiKey A credential of the gateway's own for the pool's model servers, sent as
	 * {@code Authorization: Bearer}; clients' credentials are never forwarded. Give it from the environment rather
	 * than a file.
	 * @param timeouts How long the gateway waits on one of the pool's model servers.
	 * @param enginePriority How the pool's engine reads a request's {@code priority}: {@code none} (nothing is
	 * forwarded), {@code vllm} or {@code sglang} (the request's priority is written into the body in that engine's
	 * convention); see {@link EnginePriority}.
	 * @param tokenizer The tokenizer and chat template of the models the pool serves, for exact token counts (a
	 * model may give its own); unset: token counts are estimated.
	 * @param inferencePool A Gateway API Inference Extension {@code InferencePool} whose ready pods are the pool's
	 * endpoints, {@code <name>} or {@code <namespace>/<name>} (default namespace: the Kubernetes client's); exclusive
	 * with endpoints and discovery-service-id.
	 */
	public record Pool(@DefaultValue("vllm") @NotNull EngineType engine, List<URI> endpoints,
			String discoveryServiceId, @DefaultValue("5s") @NotNull Duration discoveryRefreshInterval,
			String profile, @DefaultValue("fail-close") @NotNull FailureMode failureMode,
			@DefaultValue @Valid @NotNull Scrape scrape, @DefaultValue @Valid @NotNull KvEvents kvEvents,
			String upstreamApiKey, @DefaultValue @Valid @NotNull Timeouts timeouts,
			@DefaultValue("none") @NotNull EnginePriority enginePriority, TokenizerSettings tokenizer,
			String inferencePool) {

		@ConstructorBinding
		public Pool {
			endpoints = (endpoints != null) ? Collections.unmodifiableList(new ArrayList<>(endpoints)) : List.of();
			scrape = (scrape != null) ? scrape : Scrape.defaults();
			kvEvents = (kvEvents != null) ? kvEvents : KvEvents.defaults();
			timeouts = (timeouts != null) ? timeouts : new Timeouts(null, null);
			enginePriority = (enginePriority != null) ? enginePriority : EnginePriority.NONE;
		}

		/** A pool that names no InferencePool. */
		public Pool(EngineType engine, List<URI> endpoints, String discoveryServiceId,
				Duration discoveryRefreshInterval, String profile, FailureMode failureMode, Scrape scrape,
				KvEvents kvEvents, String upstreamApiKey, Timeouts timeouts, EnginePriority enginePriority,
				TokenizerSettings tokenizer) {
			this(engine, endpoints, discoveryServiceId, discoveryRefreshInterval, profile, failureMode, scrape,
					kvEvents, upstreamApiKey, timeouts, enginePriority, tokenizer, null);
		}

		/** A pool without a tokenizer that names no InferencePool. */
		public Pool(EngineType engine, List<URI> endpoints, String discoveryServiceId,
				Duration discoveryRefreshInterval, String profile, FailureMode failureMode, Scrape scrape,
				KvEvents kvEvents, String upstreamApiKey, Timeouts timeouts, EnginePriority enginePriority) {
			this(engine, endpoints, discoveryServiceId, discoveryRefreshInterval, profile, failureMode, scrape,
					kvEvents, upstreamApiKey, timeouts, enginePriority, null, null);
		}

		/** Whether the pool's endpoints come from an InferencePool ({@code inference-pool} is set). */
		public boolean namesInferencePool() {
			return inferencePool != null && !inferencePool.isBlank();
		}

		/** The components, with the upstream credential masked. */
		@Override
		public String toString() {
			return "Pool[engine=" + engine + ", endpoints=" + endpoints + ", discoveryServiceId=" + discoveryServiceId
					+ ", discoveryRefreshInterval=" + discoveryRefreshInterval + ", profile=" + profile
					+ ", failureMode=" + failureMode + ", scrape=" + scrape + ", kvEvents=" + kvEvents
					+ ", upstreamApiKey=" + ((upstreamApiKey != null) ? "******" : null) + ", timeouts=" + timeouts
					+ ", enginePriority=" + enginePriority + ", tokenizer=" + tokenizer + ", inferencePool="
					+ inferencePool + "]";
		}

		/** This pool with its engine told the priority as {@code convention} says. */
		public Pool withEnginePriority(EnginePriority convention) {
			return new Pool(engine, endpoints, discoveryServiceId, discoveryRefreshInterval, profile, failureMode,
					scrape, kvEvents, upstreamApiKey, timeouts, convention, tokenizer, inferencePool);
		}

		/**
		 * Whether a running pool configured as this one may become {@code next} by a configuration reload: they
		 * differ at most in what the gateway reads per request (profile, failure mode, timeouts and upstream key),
		 * and in the endpoints when both list them (no discovery).
		 */
		public boolean reloadable(Pool next) {
			boolean sameSource = (!endpoints.isEmpty() && !next.endpoints().isEmpty()) || endpoints.equals(next.endpoints());
			return sameSource && new Pool(engine, next.endpoints(), discoveryServiceId, discoveryRefreshInterval,
					next.profile(), next.failureMode(), scrape, kvEvents, next.upstreamApiKey(), next.timeouts(),
					enginePriority, tokenizer, inferencePool)
				.equals(next);
		}

		/** A pool of every default but {@code endpoints} and {@code profile}. */
		public static Pool of(List<URI> endpoints, String profile) {
			return new Pool(EngineType.VLLM, endpoints, null, Duration.ofSeconds(5), profile, FailureMode.FAIL_CLOSE,
					null, null, null, null, EnginePriority.NONE);
		}
	}

	/**
	 * How long the gateway waits on one of the pool's model servers, {@code infergate.pools.<name>.timeouts.*}. Both
	 * are off by default: a non-streamed completion sends its headers only once the whole answer is ready, and a
	 * model server may pause a stream while it serves others, so only the operator knows what is too slow.
	 *
	 * @param firstByte Longest wait for an attempt's response headers; past it the attempt is abandoned and retried on
	 * another endpoint (within {@code infergate.gateway.retries}), then a fallback model, else 504. Unset: the HTTP
	 * client's response timeout.
	 * @param streamIdle Longest silence in a streamed response, from its headers to the first event and between
	 * events; past it the stream ends with an error event and the connection to the model server is closed. Unset: no
	 * limit.
	 */
	public record Timeouts(Duration firstByte, Duration streamIdle) {
	}

	/**
	 * Subscription to every endpoint's KV-cache event stream (vLLM's ZeroMQ publisher), feeding the engine block index
	 * that the {@code precise-prefix} scorer reads. Off by default.
	 *
	 * @param enabled Whether to subscribe to the pool's endpoints' event streams.
	 * @param port The publisher's port on each endpoint's host; vLLM's default is 5557.
	 * @param replayPort The replay socket's port on each endpoint's host; unset: no replay, a missed batch cannot be
	 * recovered.
	 * @param topic Topic prefix to subscribe to; empty takes every message, as vLLM's default topic is empty.
	 * @param replayTimeout How long to wait for a replay to end before giving up on the batches it was to bring.
	 * @param staleAfter How long an endpoint's stream may stay disconnected before its blocks are forgotten (a
	 * publisher that comes back is then read from its replay buffer, or from its next batch on).
	 * @param addresses Addresses replacing the derived ones, per endpoint ({@code host:port} as in
	 * {@code /actuator/inference}): {@code publisher} and optional {@code replay}, e.g. {@code tcp://10.0.0.5:6000}.
	 */
	public record KvEvents(@DefaultValue("false") boolean enabled, @DefaultValue("5557") @Min(1) @Max(65535) int port,
			@Min(1) @Max(65535) Integer replayPort, @DefaultValue("") @NotNull String topic,
			@DefaultValue("2s") @NotNull Duration replayTimeout, @DefaultValue("5s") @NotNull Duration staleAfter,
			@Valid Map<String, Addresses> addresses) {

		public KvEvents {
			addresses = unmodifiable(addresses);
		}

		/** Off, with every default. */
		public static KvEvents defaults() {
			return new KvEvents(false, 5557, null, "", Duration.ofSeconds(2), Duration.ofSeconds(5), Map.of());
		}
	}

	/**
	 * One endpoint's event-stream addresses, ZeroMQ endpoints such as {@code tcp://10.0.0.5:5557}.
	 *
	 * @param publisher The PUB socket to subscribe to.
	 * @param replay The ROUTER replay socket, or unset for none.
	 */
	public record Addresses(@NotNull String publisher, String replay) {
	}

	/**
	 * How a pool's {@code /metrics} endpoints are polled.
	 *
	 * @param interval Poll interval; the GIE/llm-d EPP default {@code --refresh-metrics-interval} is 50 ms.
	 * @param timeout Timeout of one scrape.
	 * @param unreadyAfterFailures Consecutive failed scrapes after which an endpoint stops receiving traffic.
	 * @param defaultBlockSize Tokens per KV block when the server does not report it.
	 * @param defaultNumGpuBlocks KV blocks when the server does not report them (0: unknown).
	 * @param metricsPath Path of the Prometheus exposition; when unset, the engine's ({@code /metrics}, or
	 * {@code /prometheus/metrics} for trtllm-serve).
	 * @param metricsPort Port of the exposition; when unset, the endpoint's own port (8002 for triton-trtllm).
	 * @param metricOverrides Per-signal metric selectors replacing the engine's defaults: keys
	 * {@code waiting-requests}, {@code running-requests}, {@code kv-cache-usage}, {@code block-size},
	 * {@code num-gpu-blocks}, {@code lora-info}; values like {@code 'my_queue{tier="a"}'}.
	 */
	public record Scrape(@DefaultValue("50ms") @NotNull Duration interval,
			@DefaultValue("1s") @NotNull Duration timeout, @DefaultValue("3") int unreadyAfterFailures,
			@DefaultValue("16") int defaultBlockSize, @DefaultValue("0") int defaultNumGpuBlocks, String metricsPath,
			Integer metricsPort, Map<String, String> metricOverrides) {

		public Scrape {
			metricOverrides = unmodifiable(metricOverrides);
		}

		/** Every default: every 50 ms, 1 s timeout, unready after 3 failures. */
		public static Scrape defaults() {
			return new Scrape(Duration.ofMillis(50), Duration.ofSeconds(1), 3, 16, 0, null, null, Map.of());
		}
	}
}
