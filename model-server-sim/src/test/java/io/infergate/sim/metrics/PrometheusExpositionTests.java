package io.infergate.sim.metrics;

import java.util.List;

import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.EngineRequest;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.VirtualTimeEngine;
import io.infergate.sim.engine.EngineEventListener;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusExpositionTests {

	private static VirtualTimeEngine engineAfterOneRequest() {
		VirtualTimeEngine engine = new VirtualTimeEngine(EngineConfig.builder()
			.perfProfile(new PerfProfile("round", 1000, 10, 100))
			.loraModules(List.of("sql-lora", "support-lora"))
			.maxLoras(2)
			.numKvBlocks(500)
			.build(), EngineEventListener.NONE, 1_700_000_000.0);
		engine.submit(0, new EngineRequest(new int[40], null, 2));
		engine.submit(0, new EngineRequest(new int[40], "support-lora", 50));
		engine.advanceTo(120_000);
		return engine;
	}

	@Test
	void vllmExpositionUsesV1NamesWithModelAndEngineLabels() {
		String text = PrometheusExposition.render(EngineFlavor.VLLM, "m", engineAfterOneRequest().metrics());

		assertThat(text).contains("# TYPE vllm:num_requests_running gauge\n")
			.contains("vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 1.0\n")
			.contains("vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} 0.0\n")
			.contains("# TYPE vllm:prompt_tokens_total counter\n")
			.contains("vllm:prompt_tokens_total{engine=\"0\",model_name=\"m\"} 80.0\n")
			.contains("vllm:prompt_tokens_created{engine=\"0\",model_name=\"m\"} 1.7E9\n")
			.contains("# TYPE vllm:time_to_first_token_seconds histogram\n")
			.contains("vllm:time_to_first_token_seconds_bucket{le=\"+Inf\",engine=\"0\",model_name=\"m\"} 2.0\n")
			.contains("vllm:e2e_request_latency_seconds_count{engine=\"0\",model_name=\"m\"} 1.0\n")
			.contains("num_gpu_blocks=\"500\"")
			.contains("block_size=\"16\"")
			.contains("vllm:lora_requests_info{max_lora=\"2\",running_lora_adapters=\"support-lora\","
					+ "waiting_lora_adapters=\"\",engine=\"0\",model_name=\"m\"}");
		for (String counter : List.of("num_preemptions", "prompt_tokens", "generation_tokens",
				"prefix_cache_queries", "prefix_cache_hits")) {
			assertThat(text).contains("# TYPE vllm:" + counter + "_total counter\n");
		}
	}

	@Test
	void sglangAndTrtllmExpositionsUseTheirOwnNames() {
		VirtualTimeEngine engine = engineAfterOneRequest();

		assertThat(PrometheusExposition.render(EngineFlavor.SGLANG, "m", engine.metrics()))
			.contains("sglang:num_running_reqs{model_name=\"m\",tp_rank=\"0\"} 1.0\n")
			.contains("sglang:num_queue_reqs{model_name=\"m\",tp_rank=\"0\"} 0.0\n")
			.contains("sglang:token_usage{")
			.contains("sglang:cache_config_info{num_pages=\"500\",page_size=\"16\",model_name=\"m\",tp_rank=\"0\"} 1.0");
		assertThat(PrometheusExposition.render(EngineFlavor.TRTLLM, "m", engine.metrics()))
			.contains("trtllm_num_requests_running{model_name=\"m\"} 1.0\n")
			.contains("trtllm_num_requests_waiting{model_name=\"m\"} 0.0\n")
			.contains("trtllm_kv_cache_utilization{")
			.contains("trtllm_kv_cache_tokens_per_block{model_name=\"m\"} 16.0\n")
			.contains("trtllm_kv_cache_max_blocks{model_name=\"m\"} 500.0\n");
	}

	@Test
	void labelValuesAreEscaped() {
		assertThat(ExpositionWriter.label("model_name", "a\"b\\c\nd")).isEqualTo("model_name=\"a\\\"b\\\\c\\nd\"");
	}
}
