package io.infergate.bench.quality.replay;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.infergate.bench.quality.report.Figures;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class FlowControlReplayTests {

	/**
	 * Two pods that run 4 sequences each, offered far more than they serve: an interactive tenant at priority 0 and a
	 * sheddable batch tenant.
	 */
	private static Workload overloaded(String flowControl) {
		return WorkloadParser.parse("""
				name: overload
				seed: 5
				flow-control: %s
				cluster: {pods: 2, max-num-seqs: 4}
				arrival: {type: poisson, rate: 400}
				requests: 400
				warmup: 20
				tenants:
				  interactive: {share: 0.3, priority: 0}
				  batch: {share: 0.7, priority: -1}
				shape: {type: random, prompt-len: 200, output-len: 64}
				""".formatted(flowControl));
	}

	private static RunResult run(Workload workload) {
		return new Replay(workload, "least-request", workload.arrival().rate(), Replay.Progress.NONE).run();
	}

	@Test
	void saturatedPodsShedTheSheddableTenantWith429sAndServeTheOtherInFull() {
		RunResult run = run(overloaded("true"));

		Figures figures = Figures.of(run, List.of("interactive", "batch"));

		Figures interactive = figures.byTenant().get("interactive");
		Figures batch = figures.byTenant().get("batch");
		assertThat(run.flowControl()).isTrue();
		assertThat(batch.rejected()).isPositive();
		assertThat(interactive.rejected()).isZero();
		assertThat(figures.rejected()).isEqualTo(interactive.rejected() + batch.rejected());
		assertThat(figures.failed()).isZero();
		assertThat(run.measured()).filteredOn(RequestRecord::rejected)
			.allSatisfy((record) -> assertThat(record.pod()).as("never reached a pod").isEqualTo(-1))
			.allSatisfy((record) -> assertThat(record.tenant()).isEqualTo("batch"));
		long completed = run.measured().stream().filter(RequestRecord::completed).count();
		assertThat(completed + figures.rejected()).isEqualTo(run.measured().size());
		assertThat(interactive.requestsPerSec() + batch.requestsPerSec()).as("goodput: completed requests only")
			.isCloseTo(figures.requestsPerSec(), within(1e-9));
		assertThat(interactive.outputTokensPerSec() + batch.outputTokensPerSec())
			.isCloseTo(figures.outputTokensPerSec(), within(1e-6));
	}

	@Test
	void timeToFirstTokenRunsFromArrivalSoItCountsTheWaitAtTheGateway() {
		RunResult run = run(overloaded("true"));

		List<RequestRecord> waited = run.measured()
			.stream()
			.filter((record) -> record.completed() && record.dispatchMicros() > record.arrivalMicros())
			.toList();

		assertThat(waited).as("some requests waited at the gateway").isNotEmpty();
		assertThat(waited).allSatisfy((record) -> assertThat(record.firstTokenMicros())
			.isGreaterThan(record.dispatchMicros()));
		double[] ttfts = Figures.sortedTtftMillis(run);
		double longestWaitMillis = waited.stream()
			.mapToLong((record) -> record.dispatchMicros() - record.arrivalMicros())
			.max()
			.getAsLong() / 1000.0;
		assertThat(ttfts[ttfts.length - 1]).isGreaterThan(longestWaitMillis);
	}

	@Test
	void withFlowControlOffNothingIsRejectedAndEveryRequestIsRoutedOnArrival() {
		RunResult run = run(overloaded("false"));

		Figures figures = Figures.of(run, List.of("interactive", "batch"));

		assertThat(run.flowControl()).isFalse();
		assertThat(figures.rejected()).isZero();
		assertThat(run.measured()).allSatisfy((record) -> assertThat(record.dispatchMicros())
			.isEqualTo(record.arrivalMicros()));
	}

	@Test
	void theSustainedRateCountsEveryCompletionWhileMeasuredRequestsArriveAndNothingAfter() {
		RunResult run = run(overloaded("true"));
		long first = run.measured().get(0).arrivalMicros();
		long last = run.measured().get(run.measured().size() - 1).arrivalMicros();
		long[] completions = run.completionMicros();
		long inWindow = java.util.Arrays.stream(completions).filter((at) -> at >= first && at <= last).count();
		long measuredInWindow = run.measured()
			.stream()
			.filter((record) -> record.completed() && record.finishMicros() <= last)
			.count();

		Figures figures = Figures.of(run, List.of("interactive", "batch"));

		assertThat(completions).hasSize((int) run.completed()).isSorted();
		assertThat(inWindow).as("warm-up requests completing in the window count too").isGreaterThan(measuredInWindow);
		assertThat(figures.sustainedRequestsPerSec()).isCloseTo(inWindow / ((last - first) / 1e6), within(1e-9));
		assertThat(figures.byTenant().get("batch").sustainedRequestsPerSec()).isNaN();
	}
}
