package io.infergate.bench.metrics;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * A vLLM V1 {@code /metrics} exposition of one engine core, in the shape vLLM 0.10 serves through the Python
 * Prometheus client: process and GC families, the scheduler gauges, counters with {@code _total} and
 * {@code _created} series, twelve request histograms with {@code _bucket}, {@code _count}, {@code _sum} and
 * {@code _created} series, LoRA and cache-config info, and large values in the client's scientific notation.
 * About 35 KB. Deterministic for a given seed.
 */
public final class VllmExposition {

	private static final String MODEL = "llama-3.1-8b-instruct";

	private static final double CREATED = 1.7520522113377688e9;

	private static final double[] TTFT = { 0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5,
			5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0 };

	private static final double[] TPOT = { 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0,
			7.5, 10.0, 20.0, 40.0, 80.0 };

	private static final double[] LATENCY = { 0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0,
			50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0 };

	private static final double[] TOKENS = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000,
			100000 };

	private static final double[] ITERATION = { 1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384 };

	private final StringBuilder text = new StringBuilder(48 * 1024);

	private final SplittableRandom random;

	private VllmExposition(long seed) {
		this.random = new SplittableRandom(seed);
	}

	/** The exposition as UTF-8, with the given queue, batch and KV use. */
	public static byte[] render(long seed, int waitingRequests, int runningRequests, double kvCacheUsage) {
		return new VllmExposition(seed).write(waitingRequests, runningRequests, kvCacheUsage)
			.toString()
			.getBytes(StandardCharsets.UTF_8);
	}

	private StringBuilder write(int waiting, int running, double kvCacheUsage) {
		String base = "model_name=\"" + MODEL + "\",engine=\"0\"";
		family("python_gc_objects_collected_total", "Objects collected during gc", "counter");
		sample("python_gc_objects_collected_total", "generation=\"0\"", 18853.0);
		sample("python_gc_objects_collected_total", "generation=\"1\"", 2907.0);
		sample("python_gc_objects_collected_total", "generation=\"2\"", 1106.0);
		family("python_gc_collections_total", "Number of times this generation was collected", "counter");
		sample("python_gc_collections_total", "generation=\"0\"", 2411.0);
		sample("python_gc_collections_total", "generation=\"1\"", 218.0);
		sample("python_gc_collections_total", "generation=\"2\"", 13.0);
		family("python_info", "Python platform information", "gauge");
		sample("python_info", "implementation=\"CPython\",major=\"3\",minor=\"12\",patchlevel=\"11\",version=\"3.12.11\"", 1.0);
		family("process_resident_memory_bytes", "Resident memory size in bytes.", "gauge");
		sample("process_resident_memory_bytes", null, 3.178450944e9);
		family("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", "gauge");
		sample("process_start_time_seconds", null, 1.75205218256e9);
		family("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", "counter");
		sample("process_cpu_seconds_total", null, 1273.91);
		family("vllm:num_requests_running", "Number of requests in model execution batches.", "gauge");
		sample("vllm:num_requests_running", base, running);
		family("vllm:num_requests_waiting", "Number of requests waiting to be processed.", "gauge");
		sample("vllm:num_requests_waiting", base, waiting);
		family("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", "gauge");
		sample("vllm:kv_cache_usage_perc", base, kvCacheUsage);
		counter("vllm:prefix_cache_queries", "Prefix cache queries, in terms of number of queried tokens.", base, 4.381952e6);
		counter("vllm:prefix_cache_hits", "Prefix cache hits, in terms of number of cached tokens.", base, 2.911744e6);
		counter("vllm:num_preemptions", "Cumulative number of preemption from the engine.", base, 7.0);
		counter("vllm:prompt_tokens", "Number of prefill tokens processed.", base, 5.020315e6);
		counter("vllm:generation_tokens", "Number of generation tokens processed.", base, 1.209183e6);
		family("vllm:request_success_total", "Count of successfully processed requests.", "counter");
		for (String reason : new String[] { "stop", "length", "abort" }) {
			sample("vllm:request_success_total", base + ",finished_reason=\"" + reason + "\"", random.nextInt(5000));
		}
		for (String reason : new String[] { "stop", "length", "abort" }) {
			sample("vllm:request_success_created", base + ",finished_reason=\"" + reason + "\"", created());
		}
		histogram("vllm:request_prompt_tokens", "Number of prefill tokens processed.", base, TOKENS, 4725, 1062.0);
		histogram("vllm:request_generation_tokens", "Number of generation tokens processed.", base, TOKENS, 4725, 255.0);
		histogram("vllm:iteration_tokens_total", "Histogram of number of tokens per engine_step.", base, ITERATION, 211733, 29.0);
		histogram("vllm:request_params_n", "Histogram of the n request parameter.", base, new double[] { 1, 2, 5, 10, 20 }, 4725, 1.0);
		histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", base, TTFT, 4725, 0.183);
		histogram("vllm:time_per_output_token_seconds", "Histogram of time per output token in seconds.", base, TPOT, 1204458, 0.021);
		histogram("vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", base, TPOT, 1204458, 0.021);
		histogram("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", base, LATENCY, 4725, 5.61);
		histogram("vllm:request_queue_time_seconds", "Histogram of time spent in WAITING phase for request.", base, LATENCY, 4725, 0.31);
		histogram("vllm:request_inference_time_seconds", "Histogram of time spent in RUNNING phase for request.", base, LATENCY, 4725, 5.3);
		histogram("vllm:request_prefill_time_seconds", "Histogram of time spent in PREFILL phase for request.", base, LATENCY, 4725, 0.12);
		histogram("vllm:request_decode_time_seconds", "Histogram of time spent in DECODE phase for request.", base, LATENCY, 4725, 5.2);
		family("vllm:lora_requests_info", "Running stats on lora requests.", "gauge");
		sample("vllm:lora_requests_info", "max_lora=\"4\",running_lora_adapters=\"sql-lora\",waiting_lora_adapters=\"\"", 1.7520522107453263e9);
		sample("vllm:lora_requests_info", "max_lora=\"4\",running_lora_adapters=\"sql-lora,support-lora\",waiting_lora_adapters=\"chat-lora\"", 1.7520525231957471e9);
		family("vllm:cache_config_info", "Information of the LLMEngine CacheConfig", "gauge");
		sample("vllm:cache_config_info", "block_size=\"16\",cache_dtype=\"auto\",calculate_kv_scales=\"False\","
				+ "cpu_offload_gb=\"0\",enable_prefix_caching=\"True\",engine=\"0\",gpu_memory_utilization=\"0.9\","
				+ "is_attention_free=\"False\",num_cpu_blocks=\"None\",num_gpu_blocks=\"29127\","
				+ "num_gpu_blocks_override=\"None\",prefix_caching_hash_algo=\"builtin\",sliding_window=\"None\","
				+ "swap_space=\"4\",swap_space_bytes=\"4294967296\"", 1.0);
		return text;
	}

	private void counter(String name, String help, String labels, double value) {
		family(name + "_total", help, "counter");
		sample(name + "_total", labels, value);
		sample(name + "_created", labels, created());
	}

	/** Cumulative buckets shaped like a log-normal around {@code mean}, then count, sum and created. */
	private void histogram(String name, String help, String labels, double[] bounds, long count, double mean) {
		family(name, help, "histogram");
		for (double bound : bounds) {
			double fraction = 1 / (1 + Math.exp(-(Math.log(bound) - Math.log(mean)) * 2.2));
			sample(name + "_bucket", labels + ",le=\"" + number(bound) + "\"", Math.floor(count * fraction));
		}
		sample(name + "_bucket", labels + ",le=\"+Inf\"", count);
		sample(name + "_count", labels, count);
		sample(name + "_sum", labels, count * mean * (1 + random.nextDouble() * 0.1));
		sample(name + "_created", labels, created());
	}

	private double created() {
		return CREATED + random.nextDouble();
	}

	private void family(String name, String help, String type) {
		text.append("# HELP ").append(name).append(' ').append(help).append('\n');
		text.append("# TYPE ").append(name).append(' ').append(type).append('\n');
	}

	private void sample(String name, String labels, double value) {
		text.append(name);
		if (labels != null) {
			text.append('{').append(labels).append('}');
		}
		text.append(' ').append(number(value)).append('\n');
	}

	/**
	 * A float as the Python client writes it: {@code repr}, except that values of a million or more put their
	 * digits in a mantissa, {@code 1.7520522113377688e+09}.
	 */
	static String number(double value) {
		String repr = pythonRepr(value);
		int dot = repr.indexOf('.');
		if (value > 0 && dot > 6 && repr.indexOf('e') < 0) {
			String mantissa = (repr.charAt(0) + "." + repr.substring(1, dot) + repr.substring(dot + 1))
				.replaceAll("[0.]+$", "");
			return mantissa + "e+0" + (dot - 1);
		}
		return repr;
	}

	/** Python's {@code repr} of a float: positional between 1e-4 and 1e16, else a two-digit exponent. */
	private static String pythonRepr(double value) {
		if (value == Math.rint(value) && Math.abs(value) < 1e16) {
			return (long) value + ".0";
		}
		double magnitude = Math.abs(value);
		if (magnitude >= 1e-4 && magnitude < 1e16) {
			return new BigDecimal(Double.toString(value)).toPlainString();
		}
		String java = Double.toString(value);
		int e = java.indexOf('E');
		int exponent = Integer.parseInt(java.substring(e + 1));
		return java.substring(0, e) + ((exponent < 0) ? "e-" : "e+") + String.format("%02d", Math.abs(exponent));
	}
}
