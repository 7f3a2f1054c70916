package io.infergate.bench.quality.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.infergate.bench.quality.workload.Workload.Arrival;
import io.infergate.bench.quality.workload.Workload.LoraMix;
import io.infergate.bench.quality.workload.Workload.MultiTurn;
import io.infergate.bench.quality.workload.Workload.SharedPrefix;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.SchedulingPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkloadParserTests {

	private static final String SHARED_PREFIX = """
			name: tiny
			seed: 7
			cluster:
			  pods: 2
			  perf-profile: llama-3.1-8b-a100
			  kv-blocks: 1000
			  overrides: [{pod: 1, perf-profile: llama-3.1-8b-h100, kv-blocks: 2000}]
			arrival: {type: poisson, rate: 12.5}
			requests: 10
			warmup: 2
			shape:
			  type: shared-prefix
			  groups: 2
			  prompts-per-group: 3
			  system-prompt-len: 64
			  question-len: {mean: 16, stddev: 4}
			  output-len: 8
			""";

	@Test
	void readsNumbersAndMeanStddevLengths() {
		Workload workload = WorkloadParser.parse(SHARED_PREFIX);

		assertThat(workload.name()).isEqualTo("tiny");
		assertThat(workload.seed()).isEqualTo(7);
		assertThat(workload.totalRequests()).isEqualTo(12);
		assertThat(workload.gateways()).as("one gateway unless the file says otherwise").isEqualTo(1);
		assertThat(WorkloadParser.parse(SHARED_PREFIX + "gateways: 4\n").gateways()).isEqualTo(4);
		assertThat(workload.arrival().rates()).containsExactly(12.5);
		SharedPrefix shape = (SharedPrefix) workload.shape();
		assertThat(shape.systemPromptLen()).isEqualTo(Length.fixed(64));
		assertThat(shape.questionLen()).isEqualTo(new Length(16, 4));
		assertThat(workload.cluster().engineConfig(0).perfProfile()).isEqualTo(PerfProfile.LLAMA_3_1_8B_A100);
		assertThat(workload.cluster().engineConfig(0).numKvBlocks()).isEqualTo(1000);
		assertThat(workload.cluster().engineConfig(1).perfProfile()).isEqualTo(PerfProfile.LLAMA_3_1_8B_H100);
		assertThat(workload.cluster().engineConfig(1).numKvBlocks()).isEqualTo(2000);
	}

	@Test
	void everyShippedWorkloadParses() throws IOException {
		try (Stream<Path> files = Files.list(Path.of("workloads"))) {
			List<Path> yamls = files.filter((file) -> file.toString().endsWith(".yaml")).sorted().toList();
			assertThat(yamls).extracting((file) -> file.getFileName().toString())
				.contains("shared-prefix.yaml", "llm-d-prefix.yaml", "multi-turn-chat.yaml", "no-sharing.yaml",
						"lora-mix.yaml", "heterogeneous.yaml");
			for (Path file : yamls) {
				Workload workload = WorkloadParser.parse(file);
				assertThat(file.getFileName().toString()).isEqualTo(workload.name() + ".yaml");
			}
		}
	}

	@Test
	void readsLadderClosedLoopMultiTurnAndLoraMix() {
		Workload ladder = WorkloadParser.parse(SHARED_PREFIX.replace("{type: poisson, rate: 12.5}",
				"{type: poisson, ladder: [10, 20.5]}"));
		assertThat(ladder.arrival().rates()).containsExactly(10.0, 20.5);

		Workload chat = WorkloadParser.parse("""
				name: chat
				cluster: {pods: 1}
				arrival: {type: closed-loop, concurrency: 4}
				requests: 6
				shape: {type: multi-turn, conversations: 2, turns: 3, user-turn-len: 10, output-len: 5,
				        think-time-ms: {mean: 100, stddev: 10}}
				""");
		assertThat(chat.arrival().type()).isEqualTo(Arrival.Type.CLOSED_LOOP);
		assertThat(((MultiTurn) chat.shape()).thinkTimeMs()).isEqualTo(new Length(100, 10));

		Workload lora = WorkloadParser.parse("""
				name: lora
				cluster: {pods: 1, max-loras: 1, adapters: [a, b]}
				arrival: {type: poisson, rate: 1}
				requests: 6
				shape: {type: lora-mix, adapter-weights: {a: 0.5, b: 0.3, none: 0.2}, prompt-len: 10, output-len: 5}
				""");
		assertThat(((LoraMix) lora.shape()).adapterWeights()).containsEntry("none", 0.2).hasSize(3);
		assertThat(((LoraMix) lora.shape()).base().type()).isEqualTo("random");
	}

	@Test
	void rejectsAnUnknownKeyNamingItAndTheValidOnes() {
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX.replace("groups: 2", "grups: 2")))
			.isInstanceOf(WorkloadException.class)
			.hasMessage("shape.groups: missing");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX.replace("warmup: 2", "warmup: 2\nwarm: 3")))
			.hasMessageStartingWith("warm: unknown key; valid keys here: name, seed, cluster, arrival, requests");
	}

	@Test
	void rejectsWrongTypesAndRanges() {
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX.replace("groups: 2", "groups: many")))
			.hasMessage("shape.groups: expected an integer >= 1, got 'many'");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX.replace("output-len: 8", "output-len: -8")))
			.hasMessage("shape.output-len: expected a number >= 0 or {mean: x, stddev: y}, got '-8'");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX.replace("{mean: 16, stddev: 4}",
				"{mean: 16, sd: 4}")))
			.hasMessage("shape.question-len.sd: unknown key; valid keys here: mean, stddev");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX.replace("llama-3.1-8b-a100", "tpu")))
			.hasMessageStartingWith("cluster.perf-profile: unknown perf profile 'tpu' (valid: llama-3.1-8b-h100");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX.replace("rate: 12.5", "rate: 0")))
			.hasMessage("arrival.rate: expected a number > 0, got '0'");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX + "gateways: 0\n"))
			.hasMessage("gateways: expected an integer >= 1, got '0'");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX.replace("{pod: 1,", "{pod: 5,")))
			.hasMessage("cluster.overrides[0].pod: pod 5 does not exist (pods: 2, numbered from 0)");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX.replace("type: shared-prefix", "type: zipf")))
			.hasMessage("shape.type: expected shared-prefix, multi-turn, random or lora-mix, got 'zipf'");
	}

	@Test
	void rejectsAdaptersTheClusterDoesNotServeAndTooFewConversations() {
		assertThatThrownBy(() -> WorkloadParser.parse("""
				name: lora
				cluster: {pods: 1, max-loras: 1, adapters: [a]}
				arrival: {type: poisson, rate: 1}
				requests: 6
				shape: {type: lora-mix, adapter-weights: {c: 1}, prompt-len: 10, output-len: 5}
				"""))
			.hasMessage("shape.adapter-weights.c: adapter 'c' is not in cluster.adapters [a] (use 'none' for the base "
					+ "model)");
		assertThatThrownBy(() -> WorkloadParser.parse("""
				name: chat
				cluster: {pods: 1}
				arrival: {type: poisson, rate: 1}
				requests: 7
				shape: {type: multi-turn, conversations: 2, turns: 3, user-turn-len: 10, output-len: 5}
				"""))
			.hasMessage("shape: conversations × turns = 6 requests, fewer than warmup + requests = 7");
	}

	@Test
	void readsTenantsInTheFilesOrderWithPriorityZeroAndWeightOneByDefault() {
		Workload workload = WorkloadParser.parse(SHARED_PREFIX + """
				flow-control: true
				tenants:
				  interactive: {share: 0.3, priority: 2, weight: 3}
				  batch: {share: 0.7, priority: -1}
				  other: {share: 1}
				""");

		assertThat(workload.tenants()).containsExactly(new Workload.Tenant("interactive", 0.3, 2, 3.0),
				new Workload.Tenant("batch", 0.7, -1, 1.0), new Workload.Tenant("other", 1.0, 0, 1.0));
		assertThat(workload.flowControl()).isTrue();
		assertThat(WorkloadParser.parse(SHARED_PREFIX + "flow-control: false\n").flowControl()).isFalse();
		Workload plain = WorkloadParser.parse(SHARED_PREFIX);
		assertThat(plain.tenants()).as("no tenants unless the file names them").isEmpty();
		assertThat(plain.flowControl()).as("the gateway's own default unless the file says").isNull();
	}

	@Test
	void rejectsBadTenantsAndFlowControlValues() {
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX + "tenants: {a: {priority: 1}}\n"))
			.hasMessage("tenants.a.share: missing");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX + "tenants: {a: {share: 0}}\n"))
			.hasMessage("tenants.a.share: expected a number > 0, got '0'");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX + "tenants: {a: {share: 1, weight: -2}}\n"))
			.hasMessage("tenants.a.weight: expected a number > 0, got '-2'");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX + "tenants: {a: {share: 1, priority: high}}\n"))
			.hasMessage("tenants.a.priority: expected an integer, got 'high'");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX + "tenants: {a: {share: 1, rpm: 5}}\n"))
			.hasMessage("tenants.a.rpm: unknown key; valid keys here: share, priority, weight");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX + "tenants: {a: 0.5}\n"))
			.hasMessage("tenants.a: expected a mapping of keys, got '0.5'");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX + "tenants: {}\n"))
			.hasMessage("tenants: needs at least one tenant, or leave the key out");
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX + "flow-control: sometimes\n"))
			.hasMessage("flow-control: expected true or false, got 'sometimes'");
	}

	@Test
	void rejectsFilesThatAreNotWorkloads() {
		assertThatThrownBy(() -> WorkloadParser.parse("")).hasMessage("the file is empty");
		assertThatThrownBy(() -> WorkloadParser.parse("- a\n- b\n"))
			.hasMessage("the file: expected a mapping of keys, got a list");
		assertThatThrownBy(() -> WorkloadParser.parse("name: [unclosed")).hasMessageStartingWith("not valid YAML: ");
		assertThatThrownBy(() -> WorkloadParser.parse(Path.of("workloads/none.yaml"))).hasMessage("no such file");
	}

	@Test
	void theClustersEnginesScheduleFirstComeFirstServedUnlessTheFileSaysPriority() {
		assertThat(WorkloadParser.parse(SHARED_PREFIX).cluster().schedulingPolicy()).isEqualTo(SchedulingPolicy.FCFS);
		Workload priority = WorkloadParser.parse(SHARED_PREFIX.replace("  kv-blocks: 1000\n",
				"  kv-blocks: 1000\n  scheduling-policy: priority\n"));
		assertThat(priority.cluster().priorityScheduling()).isTrue();
		assertThat(priority.cluster().engineConfig(1).schedulingPolicy()).isEqualTo(SchedulingPolicy.PRIORITY);
		assertThatThrownBy(() -> WorkloadParser.parse(SHARED_PREFIX.replace("  kv-blocks: 1000\n",
				"  kv-blocks: 1000\n  scheduling-policy: lifo\n")))
			.isInstanceOf(WorkloadException.class)
			.hasMessage("cluster.scheduling-policy: expected fcfs or priority, got 'lifo'");
	}
}
