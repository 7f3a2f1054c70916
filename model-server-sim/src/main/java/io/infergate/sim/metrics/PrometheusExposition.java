package io.infergate.sim.metrics;

import io.infergate.sim.engine.MetricsSnapshot;

/**
 * Renders a {@link MetricsSnapshot} as one engine's {@code /metrics} text (Prometheus text format 0.0.4), with that
 * engine's metric names. Latencies are seconds of engine time.
 */
public final class PrometheusExposition {

	public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

	private PrometheusExposition() {
	}

	public static String render(EngineFlavor flavor, String modelName, MetricsSnapshot snapshot) {
		return switch (flavor) {
			case VLLM -> vllm(modelName, snapshot);
			case SGLANG -> sglang(modelName, snapshot);
			case TRTLLM -> trtllm(modelName, snapshot);
		};
	}

	private static String vllm(String modelName, MetricsSnapshot s) {
		ExpositionWriter out = new ExpositionWriter(
				ExpositionWriter.label("engine", "0") + "," + ExpositionWriter.label("model_name", modelName));
		double created = s.createdEpochSeconds();
		out.gauge("vllm:num_requests_running", "Number of requests in model execution batches.",
				s.numRequestsRunning());
		out.gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.",
				s.numRequestsWaiting());
		out.gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", s.kvCacheUsage());
		out.gauge("vllm:cache_config_info", "Information of the LLMEngine CacheConfig",
				String.join(",", ExpositionWriter.label("block_size", Integer.toString(s.blockSize())),
						ExpositionWriter.label("cache_dtype", "auto"),
						ExpositionWriter.label("enable_prefix_caching", "True"),
						ExpositionWriter.label("gpu_memory_utilization", "0.9"),
						ExpositionWriter.label("num_cpu_blocks", "None"),
						ExpositionWriter.label("num_gpu_blocks", Integer.toString(s.numKvBlocks())),
						ExpositionWriter.label("prefix_caching_hash_algo", "builtin"),
						ExpositionWriter.label("swap_space", "4")),
				1);
		if (s.maxLoras() > 0) {
			// The value is the time the adapter sets last changed; scrapers take the newest series.
			out.gauge("vllm:lora_requests_info", "Running stats on lora requests.",
					String.join(",", ExpositionWriter.label("max_lora", Integer.toString(s.maxLoras())),
							ExpositionWriter.label("running_lora_adapters", String.join(",", s.runningLoraAdapters())),
							ExpositionWriter.label("waiting_lora_adapters", String.join(",", s.waitingLoraAdapters()))),
					s.loraInfoUpdatedEpochSeconds());
		}
		out.counter("vllm:num_preemptions", "Cumulative number of preemption from the engine.", s.numPreemptions(),
				created);
		out.counter("vllm:prompt_tokens", "Number of prefill tokens processed.", s.promptTokens(), created);
		out.counter("vllm:generation_tokens", "Number of generation tokens processed.", s.generationTokens(),
				created);
		out.counter("vllm:prefix_cache_queries", "Prefix cache queries, in terms of number of queried tokens.",
				s.prefixCacheQueryTokens(), created);
		out.counter("vllm:prefix_cache_hits", "Prefix cache hits, in terms of number of cached tokens.",
				s.prefixCacheHitTokens(), created);
		out.histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.",
				s.timeToFirstToken(), created);
		out.histogram("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.",
				s.e2eRequestLatency(), created);
		return out.toString();
	}

	private static String sglang(String modelName, MetricsSnapshot s) {
		ExpositionWriter out = new ExpositionWriter(
				ExpositionWriter.label("model_name", modelName) + "," + ExpositionWriter.label("tp_rank", "0"));
		double created = s.createdEpochSeconds();
		out.gauge("sglang:num_running_reqs", "The number of running requests.", s.numRequestsRunning());
		out.gauge("sglang:num_queue_reqs", "The number of requests in the waiting queue.", s.numRequestsWaiting());
		out.gauge("sglang:token_usage", "The token usage.", s.kvCacheUsage());
		out.gauge("sglang:cache_hit_rate", "The prefix cache hit rate.",
				(s.prefixCacheQueryTokens() == 0) ? 0 : (double) s.prefixCacheHitTokens() / s.prefixCacheQueryTokens());
		out.gauge("sglang:cache_config_info", "Information of the KV cache configuration.",
				String.join(",", ExpositionWriter.label("num_pages", Integer.toString(s.numKvBlocks())),
						ExpositionWriter.label("page_size", Integer.toString(s.blockSize()))),
				1);
		out.counter("sglang:prompt_tokens", "Number of prefill tokens processed.", s.promptTokens(), created);
		out.counter("sglang:generation_tokens", "Number of generation tokens processed.", s.generationTokens(),
				created);
		out.counter("sglang:num_requests", "Number of requests processed.", s.finishedRequests(), created);
		out.histogram("sglang:time_to_first_token_seconds", "Histogram of time to first token in seconds.",
				s.timeToFirstToken(), created);
		out.histogram("sglang:e2e_request_latency_seconds", "Histogram of End-to-end request latency in seconds",
				s.e2eRequestLatency(), created);
		return out.toString();
	}

	private static String trtllm(String modelName, MetricsSnapshot s) {
		ExpositionWriter out = new ExpositionWriter(ExpositionWriter.label("model_name", modelName));
		double created = s.createdEpochSeconds();
		out.gauge("trtllm_num_requests_running", "Number of requests currently running.", s.numRequestsRunning());
		out.gauge("trtllm_num_requests_waiting", "Number of requests waiting to be scheduled.",
				s.numRequestsWaiting());
		out.gauge("trtllm_kv_cache_utilization", "Fraction of KV-cache blocks in use, 0 to 1.", s.kvCacheUsage());
		out.gauge("trtllm_kv_cache_tokens_per_block", "Tokens per KV-cache block.", s.blockSize());
		out.gauge("trtllm_kv_cache_max_blocks", "KV-cache blocks in all.", s.numKvBlocks());
		out.counter("trtllm_request_success", "Number of successfully finished requests.", s.finishedRequests(),
				created);
		out.histogram("trtllm_time_to_first_token_seconds", "Histogram of time to first token in seconds.",
				s.timeToFirstToken(), created);
		out.histogram("trtllm_e2e_request_latency_seconds", "Histogram of end to end request latency in seconds.",
				s.e2eRequestLatency(), created);
		return out.toString();
	}
}
