package io.infergate.routing.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.EndpointMetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class EngineMappingTests {

	private static final int DEFAULT_BLOCK_SIZE = 16;

	private static final int DEFAULT_NUM_GPU_BLOCKS = 1000;

	@Test
	void mapsVllmV1() {
		EndpointMetrics metrics = map(EngineMapping.VLLM, Expositions.bytes("vllm-v1.prom"));

		assertThat(metrics).isEqualTo(new EndpointMetrics(3, 12, 0.4213, 16, 29127, 4,
				Set.of("sql-lora", "support-lora"), Set.of("chat-lora")));
	}

	@Test
	void sumsVllmEngineCoresAndAveragesTheirKvUse() {
		EndpointMetrics metrics = map(EngineMapping.VLLM, Expositions.bytes("vllm-v1-dp2.prom"));

		assertThat(metrics.waitingRequests()).isEqualTo(3 + 5);
		assertThat(metrics.runningRequests()).isEqualTo(12 + 9);
		assertThat(metrics.kvCacheUsage()).isCloseTo((0.40 + 0.60) / 2, within(1e-12));
		assertThat(metrics.blockSize()).isEqualTo(16);
		assertThat(metrics.numGpuBlocks()).isEqualTo(2 * 29127);
		assertThat(metrics.maxLoras()).isZero();
	}

	@Test
	void fallsBackToGpuCacheUsageOnVllmV0() {
		EndpointMetrics metrics = map(EngineMapping.VLLM, Expositions.bytes("vllm-v0.prom"));

		assertThat(metrics).isEqualTo(new EndpointMetrics(2, 9, 0.6577897252432742, 16, 27952, 2,
				Set.of(), Set.of()));
	}

	@Test
	void prefersKvCacheUsageOverGpuCacheUsageWhenBothArePresent() {
		EndpointMetrics metrics = map(EngineMapping.VLLM, """
				vllm:num_requests_waiting 0
				vllm:num_requests_running 0
				vllm:gpu_cache_usage_perc 0.9
				vllm:kv_cache_usage_perc 0.2
				""");

		assertThat(metrics.kvCacheUsage()).isEqualTo(0.2);
	}

	@Test
	void countsSglangTensorParallelRanksOnce() {
		EndpointMetrics metrics = map(EngineMapping.SGLANG, Expositions.bytes("sglang-tp2.prom"));

		assertThat(metrics).isEqualTo(new EndpointMetrics(4, 27, 0.53, 1, 578880, 0, Set.of(),
				Set.of()));
	}

	@Test
	void sumsSglangDataParallelRanksAndReadsCacheConfigInfo() {
		EndpointMetrics metrics = map(EngineMapping.SGLANG, Expositions.bytes("sglang-dp2.prom"));

		assertThat(metrics.waitingRequests()).isEqualTo(4 + 6);
		assertThat(metrics.runningRequests()).isEqualTo(27 + 21);
		assertThat(metrics.kvCacheUsage()).isCloseTo((0.53 + 0.71) / 2, within(1e-12));
		assertThat(metrics.blockSize()).isEqualTo(16);
		assertThat(metrics.numGpuBlocks()).isEqualTo(2 * 36180);
	}

	@Test
	void collapsesTensorParallelRanksWithinEachDataParallelRank() {
		EndpointMetrics metrics = map(EngineMapping.SGLANG, """
				sglang:num_queue_reqs{dp_rank="0",tp_rank="0"} 3
				sglang:num_queue_reqs{dp_rank="0",tp_rank="1"} 3
				sglang:num_queue_reqs{dp_rank="1",tp_rank="0"} 5
				sglang:num_queue_reqs{dp_rank="1",tp_rank="1"} 5
				sglang:num_running_reqs{dp_rank="0",tp_rank="0"} 10
				sglang:num_running_reqs{dp_rank="1",tp_rank="0"} 20
				sglang:token_usage{dp_rank="0",tp_rank="0"} 0.2
				sglang:token_usage{dp_rank="0",tp_rank="1"} 0.2
				sglang:token_usage{dp_rank="1",tp_rank="0"} 0.6
				sglang:token_usage{dp_rank="1",tp_rank="1"} 0.6
				""");

		assertThat(metrics.waitingRequests()).isEqualTo(8);
		assertThat(metrics.runningRequests()).isEqualTo(30);
		assertThat(metrics.kvCacheUsage()).isCloseTo(0.4, within(1e-12));
	}

	@Test
	void mapsTrtllmServe() {
		EndpointMetrics metrics = map(EngineMapping.TRTLLM_SERVE, Expositions.bytes("trtllm-serve.prom"));

		assertThat(metrics).isEqualTo(new EndpointMetrics(6, 31, 0.8125, 32, 16384, 0, Set.of(),
				Set.of()));
	}

	@Test
	void mapsTritonTrtllmByLabelSelectors() {
		EndpointMetrics metrics = map(EngineMapping.TRITON_TRTLLM, Expositions.bytes("triton-trtllm.prom"));

		assertThat(metrics).isEqualTo(new EndpointMetrics(5, 24, 0.7197265625, 64, 4096, 0, Set.of(),
				Set.of()));
	}

	@Test
	void usesConfiguredDefaultsWhenBlockInfoIsAbsent() {
		EndpointMetrics metrics = map(EngineMapping.TRTLLM_SERVE, """
				trtllm_num_requests_waiting 1
				trtllm_num_requests_running 2
				trtllm_kv_cache_utilization 0.5
				""");

		assertThat(metrics.blockSize()).isEqualTo(DEFAULT_BLOCK_SIZE);
		assertThat(metrics.numGpuBlocks()).isEqualTo(DEFAULT_NUM_GPU_BLOCKS);
	}

	@Test
	void usesConfiguredDefaultsWhenCacheConfigSaysNone() {
		EndpointMetrics metrics = map(EngineMapping.VLLM, """
				vllm:num_requests_waiting 0
				vllm:num_requests_running 0
				vllm:kv_cache_usage_perc 0
				vllm:cache_config_info{block_size="None",num_gpu_blocks="None"} 1.0
				""");

		assertThat(metrics.blockSize()).isEqualTo(DEFAULT_BLOCK_SIZE);
		assertThat(metrics.numGpuBlocks()).isEqualTo(DEFAULT_NUM_GPU_BLOCKS);
	}

	@Test
	void failsWhenARequiredSignalIsMissing() {
		assertThatExceptionOfType(MissingMetricException.class)
			.isThrownBy(() -> map(EngineMapping.VLLM, """
					vllm:num_requests_waiting 0
					vllm:num_requests_running 0
					"""))
			.withMessage("no sample for kv-cache-usage (looked for vllm:kv_cache_usage_perc, then vllm:gpu_cache_usage_perc)")
			.satisfies((ex) -> assertThat(ex.signal()).isEqualTo(EngineSignal.KV_CACHE_USAGE));
	}

	@Test
	void failsOnAJsonBodyRatherThanRoutingOnZeros() {
		assertThatExceptionOfType(MissingMetricException.class)
			.isThrownBy(() -> map(EngineMapping.TRTLLM_SERVE, "[{\"gpuMemUsage\": 0, \"numActiveRequests\": 2}]"))
			.withMessageContaining("waiting-requests");
	}

	@Test
	void ignoresNaNSamplesAndClampsOutOfRangeValues() {
		EndpointMetrics metrics = map(EngineMapping.VLLM, """
				vllm:num_requests_waiting{engine="0"} NaN
				vllm:num_requests_waiting{engine="1"} 2
				vllm:num_requests_running -3
				vllm:kv_cache_usage_perc 1.5
				""");

		assertThat(metrics.waitingRequests()).isEqualTo(2);
		assertThat(metrics.runningRequests()).isZero();
		assertThat(metrics.kvCacheUsage()).isEqualTo(1.0);
	}

	@Test
	void newestLoraSeriesWinsWhateverItsPosition() {
		EndpointMetrics metrics = map(EngineMapping.VLLM, """
				vllm:num_requests_waiting 0
				vllm:num_requests_running 0
				vllm:kv_cache_usage_perc 0
				vllm:lora_requests_info{max_lora="2",running_lora_adapters="old",waiting_lora_adapters=""} 1.7e9
				vllm:lora_requests_info{max_lora="8",running_lora_adapters="a, b,,c",waiting_lora_adapters="d"} 1.9e9
				vllm:lora_requests_info{max_lora="4",running_lora_adapters="older",waiting_lora_adapters="x"} 1.8e9
				""");

		assertThat(metrics.maxLoras()).isEqualTo(8);
		assertThat(metrics.runningAdapters()).containsExactlyInAnyOrder("a", "b", "c");
		assertThat(metrics.waitingAdapters()).containsExactly("d");
	}

	@Test
	void readsEmptyAdapterListsAsNone() {
		EndpointMetrics metrics = map(EngineMapping.VLLM, """
				vllm:num_requests_waiting 0
				vllm:num_requests_running 0
				vllm:kv_cache_usage_perc 0
				vllm:lora_requests_info{max_lora="4",running_lora_adapters="",waiting_lora_adapters=""} 1.7e9
				""");

		assertThat(metrics.maxLoras()).isEqualTo(4);
		assertThat(metrics.runningAdapters()).isEmpty();
		assertThat(metrics.waitingAdapters()).isEmpty();
		assertThat(metrics.hasFreeAdapterSlot()).isTrue();
	}

	@Test
	void overridesReadAnotherMetricAndLabelSelector() {
		EngineMapping mapping = EngineMapping.forEngine(EngineMapping.VLLM)
			.withOverrides(Map.of("waiting-requests", "my_queue{tier=\"a\"}", "block-size",
					"my_cache_info{pool=\"gpu\"}[tokens_per_block]"));

		EndpointMetrics metrics = mapping.map(mapping.parser().parse("""
				my_queue{tier="a",shard="0"} 7
				my_queue{tier="b",shard="0"} 100
				vllm:num_requests_waiting 50
				vllm:num_requests_running 1
				vllm:kv_cache_usage_perc 0.1
				my_cache_info{pool="gpu",tokens_per_block="32"} 1
				my_cache_info{pool="cpu",tokens_per_block="64"} 1
				"""), DEFAULT_BLOCK_SIZE, DEFAULT_NUM_GPU_BLOCKS);

		assertThat(metrics.waitingRequests()).isEqualTo(7);
		assertThat(metrics.blockSize()).isEqualTo(32);
		assertThat(mapping.parser().selectedNames()).contains("my_queue", "my_cache_info")
			.doesNotContain("vllm:num_requests_waiting");
		assertThat(mapping.sources(EngineSignal.RUNNING_REQUESTS))
			.isEqualTo(EngineMapping.forEngine(EngineMapping.VLLM).sources(EngineSignal.RUNNING_REQUESTS));
	}

	@Test
	void overrideReplacesAllOfASignalsSources() {
		EngineMapping mapping = EngineMapping.forEngine(EngineMapping.VLLM)
			.withOverrides(Map.of("kv-cache-usage", "vllm:gpu_cache_usage_perc"));

		assertThat(mapping.sources(EngineSignal.KV_CACHE_USAGE)).extracting(MetricSource::toString)
			.containsExactly("vllm:gpu_cache_usage_perc");
	}

	@Test
	void overridesCanAddLoraToAnotherEngine() {
		EngineMapping mapping = EngineMapping.forEngine(EngineMapping.SGLANG)
			.withOverrides(Map.of("lora-info", "sglang:lora_requests_info"));

		EndpointMetrics metrics = map(mapping, """
				sglang:num_queue_reqs 0
				sglang:num_running_reqs 0
				sglang:token_usage 0
				sglang:lora_requests_info{max_lora="2",running_lora_adapters="a",waiting_lora_adapters=""} 1.7e9
				""");

		assertThat(metrics.maxLoras()).isEqualTo(2);
		assertThat(metrics.runningAdapters()).containsExactly("a");
	}

	@Test
	void rejectsAnUnknownSignalListingTheValidOnes() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EngineMapping.forEngine(EngineMapping.VLLM).withOverrides(Map.of("queue", "q")))
			.withMessage("unknown engine signal 'queue'; valid signals are waiting-requests, running-requests, "
					+ "kv-cache-usage, block-size, num-gpu-blocks, lora-info");
	}

	@Test
	void rejectsABadSelectorNamingTheSignal() {
		Map<String, String> overrides = new LinkedHashMap<>();
		overrides.put("running-requests", "my_running{tier=~\"a.*\"}");

		assertThatIllegalArgumentException()
			.isThrownBy(() -> EngineMapping.forEngine(EngineMapping.VLLM).withOverrides(overrides))
			.withMessageStartingWith("metric override 'running-requests': expected '=' (only equality matchers");
	}

	@Test
	void rejectsAnEmptyOverride() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EngineMapping.forEngine(EngineMapping.VLLM).withOverrides(Map.of("block-size", " ")))
			.withMessageStartingWith("metric override 'block-size' is empty");
	}

	@Test
	void rejectsAValueLabelOnLoraInfo() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EngineMapping.forEngine(EngineMapping.VLLM)
				.withOverrides(Map.of("lora-info", "vllm:lora_requests_info[max_lora]")))
			.withMessageContaining("lora-info");
	}

	@Test
	void rejectsAnUnknownEngineListingTheValidOnes() {
		assertThatIllegalArgumentException().isThrownBy(() -> EngineMapping.forEngine("tgi"))
			.withMessage("unknown engine 'tgi'; valid engines are vllm, sglang, trtllm-serve, triton-trtllm");
	}

	@Test
	void selectsOnlyTheMetricsItReads() {
		assertThat(EngineMapping.forEngine(EngineMapping.VLLM).parser().selectedNames()).containsExactlyInAnyOrder(
				"vllm:num_requests_waiting", "vllm:num_requests_running", "vllm:kv_cache_usage_perc",
				"vllm:gpu_cache_usage_perc", "vllm:cache_config_info", "vllm:lora_requests_info");
	}

	private static EndpointMetrics map(String engine, String text) {
		return map(EngineMapping.forEngine(engine), text);
	}

	private static EndpointMetrics map(String engine, byte[] text) {
		return EngineMapping.forEngine(engine).map(text, text.length, DEFAULT_BLOCK_SIZE, DEFAULT_NUM_GPU_BLOCKS);
	}

	private static EndpointMetrics map(EngineMapping mapping, String text) {
		return mapping.map(mapping.parser().parse(text), DEFAULT_BLOCK_SIZE, DEFAULT_NUM_GPU_BLOCKS);
	}
}
