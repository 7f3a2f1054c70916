package io.infergate.bench.quality.replay;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.infergate.bench.quality.report.Figures;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadParser;
import io.infergate.bench.quality.workload.WorkloadRequests;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ReplayTests {

	/** Steps cost 1 ms plus 10 µs per prefill token; decoding is free beyond the 1 ms. */
	private static final PerfProfile ONE_MS_STEPS = new PerfProfile("test", 1000, 10, 0);

	private static Workload withProfile(Workload workload, PerfProfile profile) {
		Workload.Cluster c = workload.cluster();
		return new Workload(workload.name(), workload.seed(), new Workload.Cluster(c.pods(), profile, c.kvBlocks(),
				c.blockSize(), c.maxNumSeqs(), c.maxNumBatchedTokens(), c.maxLoras(), c.adapters(), c.overrides()),
				workload.arrival(), workload.requests(), workload.warmup(), workload.gateways(), workload.shape());
	}

	/** Four random prompts of 100 tokens and 4 output tokens, from {@code clients} closed-loop clients. */
	private static RunResult roundRobinOverTwoPods(int clients) {
		Workload workload = withProfile(WorkloadParser.parse("""
				name: hand
				cluster: {pods: 2}
				arrival: {type: closed-loop, concurrency: %d}
				requests: 4
				shape: {type: random, prompt-len: 100, output-len: 4}
				""".formatted(clients)), ONE_MS_STEPS);
		return new Replay(workload, "round-robin", Double.NaN, Replay.Progress.NONE).run();
	}

	@Test
	void oneClientOnTwoPodsUnderRoundRobinGivesHandComputedTimes() {
		// Each prompt is 100 tokens of text plus 6 of chat template: 106 tokens, one prefill step of
		// 1000 + 10·106 = 2060 µs, which also yields the first token; then 3 decode steps of 1000 µs.
		RunResult run = roundRobinOverTwoPods(1);

		assertThat(run.measured()).extracting(RequestRecord::pod).containsExactly(0, 1, 0, 1);
		assertThat(run.measured()).extracting(RequestRecord::arrivalMicros).containsExactly(0L, 5060L, 10120L, 15180L);
		for (RequestRecord record : run.measured()) {
			assertThat(record.firstTokenMicros() - record.arrivalMicros()).isEqualTo(2060);
			assertThat(record.finishMicros() - record.arrivalMicros()).isEqualTo(5060);
		}
		Figures figures = Figures.of(run);
		assertThat(figures.ttftP50Ms()).isEqualTo(2.06);
		assertThat(figures.tpotP50Ms()).isEqualTo(1.0);
		assertThat(figures.e2eP99Ms()).isEqualTo(5.06);
		assertThat(figures.requestsPerSec()).isCloseTo(4 / 0.02024, within(1e-9));
		assertThat(figures.outputTokensPerSec()).isCloseTo(16 / 0.02024, within(1e-9));
		assertThat(figures.loadSkewCv()).isZero();
		assertThat(figures.prefixHitRate()).isZero();
	}

	@Test
	void requestsArrivingTogetherShareOneStep() {
		// Four clients at t = 0 on two pods: two prompts of 106 tokens per pod in one step of 1000 + 10·212 µs.
		RunResult run = roundRobinOverTwoPods(4);

		assertThat(run.measured()).extracting(RequestRecord::pod).containsExactly(0, 1, 0, 1);
		assertThat(run.measured()).extracting(RequestRecord::firstTokenMicros).containsOnly(3120L);
		assertThat(run.measured()).extracting(RequestRecord::finishMicros).containsOnly(6120L);
	}

	@Test
	void theSecondRequestOfAGroupHitsTheCacheOfThePodThatServedTheFirst() {
		// Oracle routing sends the second prompt of the group to the pod holding its 256-token system prompt.
		Workload workload = withProfile(WorkloadParser.parse("""
				name: hand
				cluster: {pods: 2}
				arrival: {type: closed-loop, concurrency: 1}
				requests: 2
				shape: {type: shared-prefix, groups: 1, prompts-per-group: 2, system-prompt-len: 256,
				        question-len: 16, output-len: 2}
				"""), ONE_MS_STEPS);

		RunResult run = new Replay(workload, "oracle", Double.NaN, Replay.Progress.NONE).run();

		List<RequestRecord> records = run.measured();
		assertThat(records.get(1).pod()).isEqualTo(records.get(0).pod());
		// Prompt: "<|system|>\n" + 1024 chars + "\n<|user|>\n" + 64 chars + "\n<|assistant|>\n" = 1124 chars,
		// 281 tokens. The first 1045 characters (261 tokens) are the same in both requests: 16 full blocks of 16.
		assertThat(run.prefixHitTokens()).isEqualTo(256);
		assertThat(records.get(0).firstTokenMicros() - records.get(0).arrivalMicros()).isEqualTo(1000 + 10 * 281);
		assertThat(records.get(1).firstTokenMicros() - records.get(1).arrivalMicros()).isEqualTo(1000 + 10 * 25);
	}

	@Test
	void gatewayReplicasTakeRequestsInTurnAndEachRotatesItsOwnRoundRobin() {
		// Replica 0 routes requests 0, 2, 4, 6 and replica 1 requests 1, 3, 5, 7; each round-robin picker starts at
		// pod 0 and knows nothing of the other's turns.
		Workload workload = withProfile(WorkloadParser.parse("""
				name: hand
				cluster: {pods: 2}
				arrival: {type: closed-loop, concurrency: 1}
				requests: 8
				gateways: 2
				shape: {type: random, prompt-len: 100, output-len: 4}
				"""), ONE_MS_STEPS);

		RunResult run = new Replay(workload, "round-robin", Double.NaN, Replay.Progress.NONE).run();

		assertThat(run.measured()).extracting(RequestRecord::pod).containsExactly(0, 0, 1, 1, 0, 0, 1, 1);
	}

	@Test
	void withDispatchSharingAReplicaSendsAGroupWhereAnotherReplicaSentIt() {
		// One request at a time, each taking milliseconds: with a 1 ms propagation delay every replica's index knows
		// where the others sent a group before the group's next request.
		Workload workload = withProfile(WorkloadParser.parse("""
				name: hand
				seed: 3
				cluster: {pods: 8}
				arrival: {type: closed-loop, concurrency: 1}
				requests: 48
				gateways: 4
				shape: {type: shared-prefix, groups: 6, prompts-per-group: 8, system-prompt-len: 256,
				        question-len: 16, output-len: 2}
				"""), ONE_MS_STEPS);

		RunResult shared = new Replay(workload, "prefix-only+dispatch-sharing", Double.NaN, Replay.Progress.NONE)
			.run();
		RunResult alone = new Replay(workload, "prefix-only", Double.NaN, Replay.Progress.NONE).run();

		assertThat(podsPerGroup(workload, shared)).as("pods each group went to").hasSize(6).containsOnly(1);
		assertThat(podsPerGroup(workload, alone)).as("without sharing each replica places a group itself")
			.anyMatch((pods) -> pods > 1);
		assertThat(shared.prefixHitTokens()).isGreaterThan(alone.prefixHitTokens());
	}

	@Test
	void everyProfileRunsBehindTwoGatewayReplicas() {
		Workload workload = WorkloadParser.parse("""
				name: every-profile
				cluster: {pods: 3, max-loras: 1, adapters: [a]}
				arrival: {type: poisson, rate: 200}
				requests: 60
				gateways: 2
				shape: {type: lora-mix, adapter-weights: {a: 0.5, none: 0.5}, conversations: 10, turns: 6,
				        system-prompt-len: 64, user-turn-len: 32, output-len: 8, think-time-ms: 5}
				""");
		for (String profile : Replay.policies()) {
			for (String policy : List.of(profile, profile + Policy.DISPATCH_SHARING)) {
				RunResult run = new Replay(workload, policy, 200, Replay.Progress.NONE).run();

				assertThat(run.failed()).as(policy).isZero();
				assertThat(run.completed()).as(policy).isEqualTo(60);
			}
		}
	}

	/** For each group (system prompt) of a shared-prefix run, the number of distinct pods its requests went to. */
	private static Collection<Integer> podsPerGroup(Workload workload, RunResult run) {
		WorkloadRequests requests = new WorkloadRequests(workload);
		Map<String, Set<Integer>> podsBySystemPrompt = new HashMap<>();
		for (RequestRecord record : run.measured()) {
			String system = requests.request(record.index()).messages().get(0).content();
			podsBySystemPrompt.computeIfAbsent(system, (key) -> new HashSet<>()).add(record.pod());
		}
		return podsBySystemPrompt.values().stream().map(Set::size).toList();
	}
}
