package io.infergate.routing.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.infergate.routing.endpoint.EndpointMetrics;

/**
 * How one engine's Prometheus metrics map onto {@link EndpointMetrics}: for each {@link EngineSignal}, the
 * {@link MetricSource}s to try in order (the first that has a sample wins). Immutable and thread-safe.
 * <p>
 * <table>
 * <caption>Built-in mappings ({@link #forEngine})</caption>
 * <tr><th>signal</th><th>vllm</th><th>sglang</th><th>trtllm-serve</th><th>triton-trtllm</th></tr>
 * <tr><td>waiting-requests</td><td>{@code vllm:num_requests_waiting}</td><td>{@code sglang:num_queue_reqs}</td>
 * <td>{@code trtllm_num_requests_waiting}</td><td>{@code nv_trt_llm_request_metrics{request_type="waiting"}}</td></tr>
 * <tr><td>running-requests</td><td>{@code vllm:num_requests_running}</td><td>{@code sglang:num_running_reqs}</td>
 * <td>{@code trtllm_num_requests_running}</td><td>{@code nv_trt_llm_request_metrics{request_type="scheduled"}}</td></tr>
 * <tr><td>kv-cache-usage</td><td>{@code vllm:kv_cache_usage_perc}, then {@code vllm:gpu_cache_usage_perc} (V0)</td>
 * <td>{@code sglang:token_usage}</td><td>{@code trtllm_kv_cache_utilization}</td>
 * <td>{@code nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="fraction"}}</td></tr>
 * <tr><td>block-size</td><td>{@code vllm:cache_config_info[block_size]}</td>
 * <td>{@code sglang:cache_config_info[page_size]}, then {@code sglang:page_size}</td>
 * <td>{@code trtllm_kv_cache_tokens_per_block}</td>
 * <td>{@code nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="tokens_per"}}</td></tr>
 * <tr><td>num-gpu-blocks</td><td>{@code vllm:cache_config_info[num_gpu_blocks]}</td>
 * <td>{@code sglang:cache_config_info[num_pages]}, then {@code sglang:num_pages}</td>
 * <td>{@code trtllm_kv_cache_max_blocks}</td>
 * <td>{@code nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="max"}}</td></tr>
 * <tr><td>lora-info</td><td>{@code vllm:lora_requests_info}</td><td>none</td><td>none</td><td>none</td></tr>
 * <tr><td>served at</td><td>{@code /metrics}</td><td>{@code /metrics}</td><td>{@code /prometheus/metrics}</td>
 * <td>{@code /metrics} on port 8002</td></tr>
 * </table>
 * <p>
 * <b>Several series.</b> One server can write several series of a metric: one per engine core ({@code engine}),
 * data-parallel rank ({@code dp_rank}), tensor-parallel rank ({@code tp_rank}) or served model. Series whose labels
 * differ only in {@code tp_rank} are shards of one scheduler and report the same queue, batch and cache, so they
 * collapse to one figure (their maximum) rather than being counted once per GPU. The remaining series are
 * independent schedulers (engine cores, DP ranks, models), and:
 * <ul>
 * <li>waiting-requests, running-requests, num-gpu-blocks = Σ over them (work and capacity add up);</li>
 * <li>kv-cache-usage = their mean, clamped to [0,1] (each reports its own pool's fraction);</li>
 * <li>block-size = their maximum (one value per server in practice).</li>
 * </ul>
 * Samples whose value is NaN are ignored. Request counts are rounded and clamped to [0, Integer.MAX_VALUE].
 * <p>
 * <b>LoRA.</b> The value of each lora-info series is the time it was written, and a new series appears whenever
 * the adapter sets change, so the series with the largest value (the last one in text order on a tie) is the
 * current one. {@code max_lora} is read as an integer (0 when absent); the adapter lists are comma-separated, and
 * empty entries and an empty string mean none.
 * <p>
 * <b>Missing figures.</b> A required signal (queue, running, KV use) without any sample fails the mapping with a
 * {@link MissingMetricException}, so the endpoint is not routed blind on zeros. Block size and count fall back to
 * the configured defaults when absent or not positive.
 */
public final class EngineMapping {

	public static final String VLLM = "vllm";

	public static final String SGLANG = "sglang";

	public static final String TRTLLM_SERVE = "trtllm-serve";

	public static final String TRITON_TRTLLM = "triton-trtllm";

	/** The engine names {@link #forEngine} knows, as written in a pool's {@code engine}. */
	public static final List<String> ENGINES = List.of(VLLM, SGLANG, TRTLLM_SERVE, TRITON_TRTLLM);

	/** The label that marks tensor-parallel shards of one scheduler; see the class comment. */
	static final String TP_RANK_LABEL = "tp_rank";

	static final String LORA_MAX_LABEL = "max_lora";

	static final String LORA_RUNNING_LABEL = "running_lora_adapters";

	static final String LORA_WAITING_LABEL = "waiting_lora_adapters";

	private static final EngineMapping VLLM_MAPPING = builtIn(VLLM, "/metrics", -1,
			"vllm:num_requests_waiting",
			"vllm:num_requests_running",
			List.of("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"),
			List.of("vllm:cache_config_info[block_size]"),
			List.of("vllm:cache_config_info[num_gpu_blocks]"),
			List.of("vllm:lora_requests_info"));

	private static final EngineMapping SGLANG_MAPPING = builtIn(SGLANG, "/metrics", -1,
			"sglang:num_queue_reqs",
			"sglang:num_running_reqs",
			List.of("sglang:token_usage"),
			List.of("sglang:cache_config_info[page_size]", "sglang:page_size"),
			List.of("sglang:cache_config_info[num_pages]", "sglang:num_pages"),
			List.of());

	// trtllm-serve answers /metrics with JSON iteration statistics; the Prometheus text is under /prometheus.
	private static final EngineMapping TRTLLM_SERVE_MAPPING = builtIn(TRTLLM_SERVE, "/prometheus/metrics", -1,
			"trtllm_num_requests_waiting",
			"trtllm_num_requests_running",
			List.of("trtllm_kv_cache_utilization"),
			List.of("trtllm_kv_cache_tokens_per_block"),
			List.of("trtllm_kv_cache_max_blocks"),
			List.of());

	// Triton serves metrics on a port of its own, --metrics-port, 8002 unless changed.
	private static final EngineMapping TRITON_TRTLLM_MAPPING = builtIn(TRITON_TRTLLM, "/metrics", 8002,
			"nv_trt_llm_request_metrics{request_type=\"waiting\"}",
			"nv_trt_llm_request_metrics{request_type=\"scheduled\"}",
			List.of("nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=\"fraction\"}"),
			List.of("nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=\"tokens_per\"}"),
			List.of("nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=\"max\"}"),
			List.of());

	private final String engine;

	private final String defaultMetricsPath;

	private final int defaultMetricsPort;

	private final Map<EngineSignal, List<MetricSource>> sources;

	private final PrometheusTextParser parser;

	private EngineMapping(String engine, String defaultMetricsPath, int defaultMetricsPort,
			Map<EngineSignal, List<MetricSource>> sources) {
		this.engine = engine;
		this.defaultMetricsPath = defaultMetricsPath;
		this.defaultMetricsPort = defaultMetricsPort;
		EnumMap<EngineSignal, List<MetricSource>> copy = new EnumMap<>(EngineSignal.class);
		Set<String> names = new LinkedHashSet<>();
		for (EngineSignal signal : EngineSignal.values()) {
			List<MetricSource> signalSources = List.copyOf(sources.getOrDefault(signal, List.of()));
			if (signal.required() && signalSources.isEmpty()) {
				throw new IllegalArgumentException(engine + ": no metric for required signal " + signal.key());
			}
			copy.put(signal, signalSources);
			signalSources.forEach((source) -> names.add(source.selector().name()));
		}
		this.sources = copy;
		this.parser = PrometheusTextParser.selecting(names);
	}

	/**
	 * The built-in mapping of an engine.
	 * @param engine one of {@link #ENGINES}
	 * @throws IllegalArgumentException listing the valid engines
	 */
	public static EngineMapping forEngine(String engine) {
		return switch (String.valueOf(engine)) {
			case VLLM -> VLLM_MAPPING;
			case SGLANG -> SGLANG_MAPPING;
			case TRTLLM_SERVE -> TRTLLM_SERVE_MAPPING;
			case TRITON_TRTLLM -> TRITON_TRTLLM_MAPPING;
			default -> throw new IllegalArgumentException(
					"unknown engine '" + engine + "'; valid engines are " + String.join(", ", ENGINES));
		};
	}

	/**
	 * A mapping for an engine without a built-in one, served on {@code /metrics} of the endpoint's own port; every
	 * required signal needs at least one source.
	 */
	public static EngineMapping of(String engine, Map<EngineSignal, List<MetricSource>> sources) {
		return new EngineMapping(engine, "/metrics", -1, sources);
	}

	private static EngineMapping builtIn(String engine, String metricsPath, int metricsPort, String waiting, String running, List<String> kvCacheUsage,
			List<String> blockSize, List<String> numGpuBlocks, List<String> loraInfo) {
		Map<EngineSignal, List<MetricSource>> sources = new EnumMap<>(EngineSignal.class);
		sources.put(EngineSignal.WAITING_REQUESTS, List.of(MetricSource.parse(waiting)));
		sources.put(EngineSignal.RUNNING_REQUESTS, List.of(MetricSource.parse(running)));
		sources.put(EngineSignal.KV_CACHE_USAGE, kvCacheUsage.stream().map(MetricSource::parse).toList());
		sources.put(EngineSignal.BLOCK_SIZE, blockSize.stream().map(MetricSource::parse).toList());
		sources.put(EngineSignal.NUM_GPU_BLOCKS, numGpuBlocks.stream().map(MetricSource::parse).toList());
		sources.put(EngineSignal.LORA_INFO, loraInfo.stream().map(MetricSource::parse).toList());
		return new EngineMapping(engine, metricsPath, metricsPort, sources);
	}

	/**
	 * This mapping with some signals read elsewhere. Each key is a signal key ({@code waiting-requests},
	 * {@code running-requests}, {@code kv-cache-usage}, {@code block-size}, {@code num-gpu-blocks},
	 * {@code lora-info}); each value is a {@link MetricSource} in its text form, e.g.
	 * {@code my_queue{tier="a"}} or {@code my_cache_info[block_size]}, and replaces all of that signal's sources.
	 * @throws IllegalArgumentException naming the signal and what is wrong with its value
	 */
	public EngineMapping withOverrides(Map<String, String> overrides) {
		if (overrides.isEmpty()) {
			return this;
		}
		Map<EngineSignal, List<MetricSource>> overridden = new EnumMap<>(sources);
		overrides.forEach((key, text) -> {
			EngineSignal signal = EngineSignal.forKey(key);
			if (text == null || text.isBlank()) {
				throw new IllegalArgumentException(
						"metric override '" + key + "' is empty; expected name or name{label=\"value\",...}");
			}
			MetricSource source;
			try {
				source = MetricSource.parse(text);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("metric override '" + key + "': " + ex.getMessage(), ex);
			}
			if (signal == EngineSignal.LORA_INFO && source.valueLabel() != null) {
				throw new IllegalArgumentException("metric override '" + key
						+ "': lora-info reads the labels max_lora, running_lora_adapters and waiting_lora_adapters,"
						+ " so it takes no [label] suffix");
			}
			overridden.put(signal, List.of(source));
		});
		return new EngineMapping(engine, defaultMetricsPath, defaultMetricsPort, overridden);
	}

	public String engine() {
		return engine;
	}

	/** The path this engine serves its Prometheus text on: {@code /metrics}, or {@code /prometheus/metrics} for trtllm-serve. */
	public String defaultMetricsPath() {
		return defaultMetricsPath;
	}

	/** The port it serves them on, or -1 for the endpoint's own port; 8002 for Triton. */
	public int defaultMetricsPort() {
		return defaultMetricsPort;
	}

	/** Where a signal is read, in the order tried; empty when this engine does not report it. */
	public List<MetricSource> sources(EngineSignal signal) {
		return sources.get(signal);
	}

	/** A parser selecting exactly the metric names this mapping reads. */
	public PrometheusTextParser parser() {
		return parser;
	}

	/** Parses an exposition with {@link #parser()} and maps it; see {@link #map(PrometheusSamples, int, int)}. */
	public EndpointMetrics map(byte[] text, int length, int defaultBlockSize, int defaultNumGpuBlocks) {
		return map(parser.parse(text, 0, length), defaultBlockSize, defaultNumGpuBlocks);
	}

	/**
	 * Maps parsed samples by the rules in the class comment.
	 * @param defaultBlockSize tokens per block when the server does not say
	 * @param defaultNumGpuBlocks blocks in all when the server does not say
	 * @throws MissingMetricException if a required signal has no sample
	 */
	public EndpointMetrics map(PrometheusSamples samples, int defaultBlockSize, int defaultNumGpuBlocks) {
		List<PrometheusSample> all = samples.samples();
		double waiting = aggregate(all, EngineSignal.WAITING_REQUESTS, Combine.SUM);
		double running = aggregate(all, EngineSignal.RUNNING_REQUESTS, Combine.SUM);
		double kvCacheUsage = aggregate(all, EngineSignal.KV_CACHE_USAGE, Combine.MEAN);
		double blockSize = aggregate(all, EngineSignal.BLOCK_SIZE, Combine.MAX);
		double numGpuBlocks = aggregate(all, EngineSignal.NUM_GPU_BLOCKS, Combine.SUM);
		PrometheusSample lora = newest(all, sources.get(EngineSignal.LORA_INFO));
		int maxLoras = 0;
		Set<String> runningAdapters = Set.of();
		Set<String> waitingAdapters = Set.of();
		if (lora != null) {
			maxLoras = (int) clampCount(MetricSource.parseNumber(lora.labels().get(LORA_MAX_LABEL)));
			runningAdapters = adapterList(lora.labels().get(LORA_RUNNING_LABEL));
			waitingAdapters = adapterList(lora.labels().get(LORA_WAITING_LABEL));
		}
		return new EndpointMetrics((int) clampCount(waiting), (int) clampCount(running),
				Math.min(1, Math.max(0, kvCacheUsage)),
				(blockSize >= 1) ? (int) clampCount(blockSize) : defaultBlockSize,
				(numGpuBlocks >= 1) ? (int) clampCount(numGpuBlocks) : defaultNumGpuBlocks,
				maxLoras, runningAdapters, waitingAdapters);
	}

	private enum Combine {
		SUM, MEAN, MAX
	}

	/**
	 * Reads a signal from the first of its sources that has a non-NaN sample: collapses series that differ only in
	 * {@code tp_rank} to their maximum, then combines the rest. NaN when no source has a sample; throws then
	 * if the signal is required.
	 */
	private double aggregate(List<PrometheusSample> samples, EngineSignal signal, Combine combine) {
		List<MetricSource> signalSources = sources.get(signal);
		for (MetricSource source : signalSources) {
			// Few series match (one per rank), so grouping by linear search beats hashing label sets.
			List<Labels> groupLabels = null;
			double[] groupValues = null;
			int groups = 0;
			for (PrometheusSample sample : samples) {
				if (!source.matches(sample)) {
					continue;
				}
				double value = source.read(sample);
				if (Double.isNaN(value)) {
					continue;
				}
				if (groupLabels == null) {
					groupLabels = new ArrayList<>(4);
					groupValues = new double[4];
				}
				int group = 0;
				while (group < groups && !groupLabels.get(group).equalsIgnoring(sample.labels(), TP_RANK_LABEL)) {
					group++;
				}
				if (group == groups) {
					if (groups == groupValues.length) {
						groupValues = Arrays.copyOf(groupValues, groups * 2);
					}
					groupLabels.add(sample.labels());
					groupValues[groups++] = value;
				}
				else {
					groupValues[group] = Math.max(groupValues[group], value);
				}
			}
			if (groups > 0) {
				return combine(groupValues, groups, combine);
			}
		}
		if (signal.required()) {
			throw new MissingMetricException(signal, signalSources);
		}
		return Double.NaN;
	}

	private static double combine(double[] values, int count, Combine combine) {
		double result = (combine == Combine.MAX) ? Double.NEGATIVE_INFINITY : 0;
		for (int i = 0; i < count; i++) {
			result = (combine == Combine.MAX) ? Math.max(result, values[i]) : result + values[i];
		}
		return (combine == Combine.MEAN) ? result / count : result;
	}

	/** The matching sample with the largest value, the last one on a tie; {@code null} when none matches. */
	private static PrometheusSample newest(List<PrometheusSample> samples, List<MetricSource> loraSources) {
		for (MetricSource source : loraSources) {
			PrometheusSample newest = null;
			for (PrometheusSample sample : samples) {
				if (source.matches(sample) && !Double.isNaN(sample.value())
						&& (newest == null || sample.value() >= newest.value())) {
					newest = sample;
				}
			}
			if (newest != null) {
				return newest;
			}
		}
		return null;
	}

	private static Set<String> adapterList(String commaSeparated) {
		if (commaSeparated == null || commaSeparated.isBlank()) {
			return Set.of();
		}
		Set<String> adapters = new LinkedHashSet<>();
		for (String adapter : commaSeparated.split(",")) {
			String trimmed = adapter.strip();
			if (!trimmed.isEmpty()) {
				adapters.add(trimmed);
			}
		}
		return adapters;
	}

	/** Rounds to a count in [0, Integer.MAX_VALUE]; NaN reads as 0. */
	private static double clampCount(double value) {
		if (!(value > 0)) {
			return 0;
		}
		return Math.min(Integer.MAX_VALUE, Math.rint(value));
	}

	@Override
	public boolean equals(Object other) {
		return (this == other) || (other instanceof EngineMapping mapping && engine.equals(mapping.engine)
				&& defaultMetricsPath.equals(mapping.defaultMetricsPath)
				&& defaultMetricsPort == mapping.defaultMetricsPort && sources.equals(mapping.sources));
	}

	@Override
	public int hashCode() {
		return Objects.hash(engine, defaultMetricsPath, defaultMetricsPort, sources);
	}

	@Override
	public String toString() {
		return engine + sources;
	}
}
