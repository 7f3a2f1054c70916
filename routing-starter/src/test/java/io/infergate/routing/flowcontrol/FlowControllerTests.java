package io.infergate.routing.flowcontrol;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.infergate.routing.scheduling.MutableClock;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.flowcontrol.FlowControlProperties.BandPolicy;
import io.infergate.routing.flowcontrol.FlowControlProperties.Detector;
import io.infergate.routing.flowcontrol.FlowControlProperties.Fairness;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.EnginePriority;
import io.infergate.routing.pool.PoolProperties;

import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;

class FlowControllerTests {

	private static final String POOL = "llama";

	private final MutableClock clock = new MutableClock(1_000_000);

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private EndpointRegistry registry;

	/** The pool's room: requests in flight it takes; its one endpoint is ready. */
	private int slots = 1;

	@BeforeEach
	void onePoolWithOneReadyEndpoint() {
		PoolProperties.Pool pool = PoolProperties.Pool.of(List.of(URI.create("http://10.0.0.1:8000")), null);
		registry = new EndpointRegistry(Map.of(POOL, pool));
		registry.sync(POOL, pool.endpoints());
		registry.pool(POOL).endpoints().forEach((endpoint) -> endpoint.setReady(true));
	}

	private FlowController controller(BandPolicy bands, Map<Integer, Double> bandWeights, Fairness fairness,
			int maxPerBand) {
		FlowControlProperties properties = new FlowControlProperties(true, Detector.CONCURRENCY, 0, 0, bands,
				bandWeights, fairness, 100, DataSize.ofMegabytes(1), maxPerBand, DataSize.ofMegabytes(1),
				Duration.ofSeconds(10), Duration.ofSeconds(60), Duration.ofMillis(10));
		PoolCapacity room = (ready, requests, tokens, now) -> requests < slots;
		return new FlowController(registry, room, properties, clock, meters);
	}

	private FlowController controller() {
		return controller(BandPolicy.STRICT, Map.of(), Fairness.ROUND_ROBIN, 50);
	}

	private static FlowTicket send(FlowController controller, String tenant, int priority) {
		return controller.enqueue(POOL, new Caller(tenant, tenant, priority, 1.0), 100, 60, 1000, null);
	}

	private static FlowOutcome outcome(FlowTicket ticket) {
		return ticket.decision().isDone() ? ticket.decision().join().outcome() : null;
	}

	/** Releases whichever ticket is in flight, in order, and returns the tickets in dispatch order. */
	private static List<FlowTicket> drainInOrder(FlowTicket running, List<FlowTicket> waiting) {
		List<FlowTicket> order = new ArrayList<>();
		FlowTicket current = running;
		List<FlowTicket> left = new ArrayList<>(waiting);
		while (!left.isEmpty()) {
			current.release(-1);
			FlowTicket next = left.stream().filter((t) -> outcome(t) == FlowOutcome.DISPATCHED).findFirst().orElseThrow();
			left.remove(next);
			order.add(next);
			current = next;
		}
		return order;
	}

	@Test
	void dispatchesAtOnceWhileThePoolHasRoom() {
		FlowTicket ticket = send(controller(), "a", 0);

		assertThat(ticket.decision().join()).isEqualTo(new FlowDecision(FlowOutcome.DISPATCHED, 0, 0));
	}

	@Test
	void waitsWhileSaturatedAndLeavesWhenARequestEnds() {
		FlowController controller = controller();
		FlowTicket running = send(controller, "a", 0);
		FlowTicket waiting = send(controller, "a", 0);
		assertThat(outcome(waiting)).isNull();
		clock.advanceMillis(250);

		running.release(160);

		assertThat(waiting.decision().join()).isEqualTo(new FlowDecision(FlowOutcome.DISPATCHED, 250, 0));
	}

	@Test
	void dispatchesWaitingRequestsWhenASweepFindsRoom() {
		FlowController controller = controller();
		slots = 0;
		FlowTicket waiting = send(controller, "a", 0);
		slots = 1;

		controller.sweep();

		assertThat(outcome(waiting)).isEqualTo(FlowOutcome.DISPATCHED);
	}

	@Test
	void strictBandsServeTheHighestPriorityFirst() {
		FlowController controller = controller();
		FlowTicket running = send(controller, "a", 0);
		FlowTicket low = send(controller, "a", 0);
		FlowTicket high = send(controller, "b", 5);
		FlowTicket middle = send(controller, "c", 2);

		assertThat(drainInOrder(running, List.of(low, high, middle))).containsExactly(high, middle, low);
	}

	@Test
	void weightedBandsShareDispatchesByWeightSoTheLowBandIsNotStarved() {
		FlowController controller = controller(BandPolicy.WEIGHTED, Map.of(1, 3.0, 0, 1.0), Fairness.ROUND_ROBIN, 50);
		FlowTicket running = send(controller, "a", 1);
		List<FlowTicket> waiting = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			waiting.add(send(controller, "high", 1));
			waiting.add(send(controller, "low", 0));
		}

		List<FlowTicket> firstEight = drainInOrder(running, waiting).subList(0, 8);

		assertThat(firstEight.stream().filter((t) -> t.priority() == 0)).hasSize(2);
	}

	@Test
	void roundRobinTakesOneRequestPerTenantInTurnAndEachTenantsOldestFirst() {
		FlowController controller = controller();
		FlowTicket running = send(controller, "a", 0);
		FlowTicket a1 = send(controller, "a", 0);
		FlowTicket a2 = send(controller, "a", 0);
		FlowTicket a3 = send(controller, "a", 0);
		FlowTicket b1 = send(controller, "b", 0);

		assertThat(drainInOrder(running, List.of(a1, a2, a3, b1))).containsExactly(a1, b1, a2, a3);
	}

	@Test
	void tokenFairnessServesTheTenantThatConsumedLeastPerWeightFirst() {
		FlowController controller = controller(BandPolicy.STRICT, Map.of(), Fairness.TOKENS, 50);
		FlowTicket running = send(controller, "light", 0);
		FlowTicket heavy1 = send(controller, "heavy", 0);
		FlowTicket heavy2 = send(controller, "heavy", 0);
		FlowTicket light1 = send(controller, "light", 0);
		FlowTicket light2 = send(controller, "light", 0);
		running.release(-1);
		assertThat(outcome(heavy1)).isEqualTo(FlowOutcome.DISPATCHED); // lowest counter: 0 against light's 100

		heavy1.release(5000); // 4940 completion tokens, against 40 for each of light's

		assertThat(drainInOrder(light1, List.of(light2, heavy2))).containsExactly(light2, heavy2);
	}

	@Test
	void aTenantThatStartsWaitingIsLiftedToTheLowestCounterSoIdleTimeEarnsNoCredit() {
		FlowController controller = controller(BandPolicy.STRICT, Map.of(), Fairness.TOKENS, 50);
		FlowTicket running = send(controller, "busy", 0);
		List<FlowTicket> busy = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			busy.add(send(controller, "busy", 0));
		}
		List<FlowTicket> order = new ArrayList<>(drainInOrder(running, busy.subList(0, 10)));
		FlowTicket newcomer1 = send(controller, "newcomer", 0);
		FlowTicket newcomer2 = send(controller, "newcomer", 0);
		FlowTicket newcomer3 = send(controller, "newcomer", 0);
		List<FlowTicket> rest = new ArrayList<>(busy.subList(10, 20));
		rest.addAll(List.of(newcomer1, newcomer2, newcomer3));

		List<FlowTicket> next = drainInOrder(order.get(order.size() - 1), rest).subList(0, 6);

		assertThat(next.stream().filter((t) -> t.tenant().equals("newcomer"))).hasSize(3);
		assertThat(next.get(5).tenant()).isEqualTo("busy");
	}

	@Test
	void sheddableRequestsAreRejectedAtOnceWhileSaturated() {
		FlowController controller = controller();
		send(controller, "a", 0);

		FlowTicket sheddable = send(controller, "batch", -1);

		assertThat(outcome(sheddable)).isEqualTo(FlowOutcome.REJECTED_SHEDDABLE);
		assertThat(sheddable.decision().join().retryAfterMillis()).isPositive();
	}

	@Test
	void rejectsForCapacityWhenTheBandIsFullButAcceptsAnotherBand() {
		FlowController controller = controller(BandPolicy.STRICT, Map.of(), Fairness.ROUND_ROBIN, 2);
		send(controller, "a", 0);
		send(controller, "a", 0);
		send(controller, "a", 0);

		FlowTicket third = send(controller, "a", 0);
		FlowTicket otherBand = send(controller, "a", 3);

		assertThat(outcome(third)).isEqualTo(FlowOutcome.REJECTED_CAPACITY);
		assertThat(otherBand.decision()).isNotDone();
	}

	@Test
	void aFullBandTurnsAwayTheNewestRequestOfTheTenantHoldingMostOfItSoAQuietTenantIsNotShed() {
		FlowController controller = controller(BandPolicy.STRICT, Map.of(), Fairness.TOKENS, 2);
		send(controller, "flood", 0);
		FlowTicket oldest = send(controller, "flood", 0);
		FlowTicket newest = send(controller, "flood", 0);

		FlowTicket quiet = send(controller, "quiet", 0);

		assertThat(outcome(newest)).isEqualTo(FlowOutcome.REJECTED_CAPACITY);
		assertThat(newest.decision().join().retryAfterMillis()).isPositive();
		assertThat(oldest.decision()).isNotDone();
		assertThat(quiet.decision()).isNotDone();
		assertThat(meters.get(FlowControlMeters.REQUESTS).tag("outcome", "rejected-capacity").counter().count())
			.isEqualTo(1);
	}

	@Test
	void aFullBandKeepsEachTenantsPlacesInProportionToItsWeight() {
		FlowController controller = controller(BandPolicy.STRICT, Map.of(), Fairness.TOKENS, 2);
		send(controller, "a", 0);
		FlowTicket waitingA = send(controller, "a", 0);
		FlowTicket heavy = controller.enqueue(POOL, new Caller("b", "b", 0, 3.0), 100, 60, 1000, null);

		FlowTicket secondA = send(controller, "a", 0);
		FlowTicket secondHeavy = controller.enqueue(POOL, new Caller("b", "b", 0, 3.0), 100, 60, 1000, null);

		assertThat(outcome(secondA)).as("a would hold 2 per weight against b's 1/3")
			.isEqualTo(FlowOutcome.REJECTED_CAPACITY);
		assertThat(outcome(waitingA)).as("b would hold 2/3 per weight against a's 1: a's newest makes room")
			.isEqualTo(FlowOutcome.REJECTED_CAPACITY);
		assertThat(heavy.decision()).isNotDone();
		assertThat(secondHeavy.decision()).isNotDone();
	}

	@Test
	void retryAfterIsTheWaitingRequestsOverTheObservedDrainRate() {
		FlowController controller = controller(BandPolicy.STRICT, Map.of(), Fairness.ROUND_ROBIN, 3);
		FlowTicket running = send(controller, "a", 0);
		for (int i = 0; i < 5; i++) { // one dispatch every 100 ms
			clock.advanceMillis(100);
			FlowTicket next = send(controller, "a", 0);
			running.release(-1);
			running = next;
		}
		send(controller, "a", 0);
		send(controller, "a", 0);
		send(controller, "a", 0);

		FlowTicket refused = send(controller, "a", 0);

		// 3 waiting + this one, at 10 per second
		assertThat(refused.decision().join().retryAfterMillis()).isEqualTo(400);
	}

	@Test
	void waitingPastTheTimeToLiveIsAnsweredTtlExpired() {
		FlowController controller = controller();
		send(controller, "a", 0);
		FlowTicket waiting = controller.enqueue(POOL, new Caller("a", "a", 0, 1), 100, 60, 10,
				Duration.ofMillis(500));
		clock.advanceMillis(499);
		controller.sweep();
		assertThat(waiting.decision()).isNotDone();

		clock.advanceMillis(1);
		controller.sweep();

		assertThat(waiting.decision().join().outcome()).isEqualTo(FlowOutcome.TTL_EXPIRED);
		assertThat(waiting.decision().join().waitedMillis()).isEqualTo(500);
	}

	@Test
	void expiryWhileThePoolHasNoReadyEndpointIsAnsweredNoEndpoints() {
		FlowController controller = controller();
		send(controller, "a", 0);
		FlowTicket waiting = send(controller, "a", 0);
		registry.pool(POOL).endpoints().forEach((endpoint) -> endpoint.setReady(false));
		clock.advanceMillis(10_000);

		controller.sweep();

		assertThat(outcome(waiting)).isEqualTo(FlowOutcome.NO_ENDPOINTS);
	}

	@Test
	void aClientThatGoesAwayLeavesNeitherAQueuedRequestNorCapacityBehind() {
		FlowController controller = controller();
		FlowTicket running = send(controller, "a", 0);
		FlowTicket waiting = send(controller, "a", 0);

		waiting.cancel();
		running.cancel();

		assertThat(outcome(waiting)).isEqualTo(FlowOutcome.CANCELLED);
		PoolFlowReport report = controller.report(POOL);
		assertThat(report.queuedRequests()).isZero();
		assertThat(report.inFlightRequests()).isZero();
		assertThat(report.inFlightTokens()).isZero();
		assertThat(outcome(send(controller, "a", 0))).isEqualTo(FlowOutcome.DISPATCHED);
	}

	@Test
	void shuttingDownAnswersWaitingAndNewRequests() {
		FlowController controller = controller();
		send(controller, "a", 0);
		FlowTicket waiting = send(controller, "a", 0);

		controller.shutDown();

		assertThat(outcome(waiting)).isEqualTo(FlowOutcome.SHUTTING_DOWN);
		assertThat(outcome(send(controller, "a", 5))).isEqualTo(FlowOutcome.SHUTTING_DOWN);
	}

	@Test
	void withFlowControlOffEveryRequestIsDispatchedAtOnce() {
		FlowController controller = new FlowController(registry, (ready, requests, tokens, now) -> false,
				FlowControlProperties.defaults(false), clock, meters);

		assertThat(outcome(send(controller, "a", -1))).isEqualTo(FlowOutcome.DISPATCHED);
	}

	@Test
	void countsOutcomesAndWaitingRequestsPerBand() {
		FlowController controller = controller();
		send(controller, "a", 0);
		send(controller, "a", 0);
		send(controller, "a", -1);

		assertThat(meters.get(FlowControlMeters.QUEUE_REQUESTS).tag("priority", "0").gauge().value()).isEqualTo(1);
		assertThat(meters.get(FlowControlMeters.REQUESTS)
			.tags("priority", "-1", "outcome", "rejected-sheddable")
			.counter()
			.count()).isEqualTo(1);
	}

	@Test
	void theConcurrencyDetectorHasRoomUnderItsLimitsPerReadyEndpoint() {
		PoolCapacity capacity = PoolCapacity.concurrency(2, 1000);
		List<Endpoint> two = registry.pool(POOL).endpoints();
		List<Endpoint> ready = List.of(two.get(0), two.get(0));

		assertThat(capacity.hasRoom(ready, 3, 1999, 0)).isTrue();
		assertThat(capacity.hasRoom(ready, 4, 0, 0)).isFalse();
		assertThat(capacity.hasRoom(ready, 0, 2000, 0)).isFalse();
		assertThat(PoolCapacity.concurrency(0, 0).hasRoom(ready, 1_000_000, Long.MAX_VALUE, 0)).isTrue();
	}

	private void engineTold(EnginePriority convention) {
		PoolProperties.Pool pool = PoolProperties.Pool.of(List.of(URI.create("http://10.0.0.1:8000")), null)
			.withEnginePriority(convention);
		registry = new EndpointRegistry(Map.of(POOL, pool));
		registry.sync(POOL, pool.endpoints());
		registry.pool(POOL).endpoints().forEach((endpoint) -> endpoint.setReady(true));
	}

	@Test
	void theEngineIsToldThePriorityInItsOwnConventionAndNothingWhenItIsToldNone() {
		FlowTicket none = send(controller(), "a", 3);
		assertThat(controller().enginePriority(none)).isNull();

		engineTold(EnginePriority.VLLM);
		FlowController vllm = controller();
		FlowTicket important = send(vllm, "a", 3);
		important.release(-1);
		FlowTicket batch = send(vllm, "a", 0);
		batch.release(-1);
		FlowTicket sheddable = send(vllm, "a", -5);
		// vLLM serves lower values first: 3 * 16 + 15 = 63 goes ahead of 15, which goes ahead of -65
		assertThat(vllm.enginePriority(important)).isEqualTo(-63);
		assertThat(vllm.enginePriority(batch)).isEqualTo(-15);
		assertThat(vllm.enginePriority(sheddable)).isEqualTo(65);

		engineTold(EnginePriority.SGLANG);
		FlowController sglang = controller();
		FlowTicket sglangImportant = send(sglang, "a", 3);
		assertThat(sglang.enginePriority(sglangImportant)).isEqualTo(63);
	}

	@Test
	void withinAPriorityTheTenantThatUsedLessOfThePoolGetsTheHigherEngineLevelButNeverAboveTheNextPriority() {
		engineTold(EnginePriority.SGLANG);
		slots = 100;
		FlowController controller = controller(BandPolicy.STRICT, Map.of(), Fairness.TOKENS, 50);
		List<FlowTicket> flood = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			flood.add(send(controller, "flood", 0));
		}
		FlowTicket quiet = send(controller, "quiet", 0);
		FlowTicket floodAgain = send(controller, "flood", 0);
		FlowTicket higher = send(controller, "other", 1);

		// the flooding tenant has charged 10 prompts of 60 tokens, the quiet one none when it was dispatched
		assertThat(controller.enginePriority(quiet)).isEqualTo(15);
		assertThat(controller.enginePriority(floodAgain)).isEqualTo(0);
		assertThat(controller.enginePriority(higher)).isEqualTo(31);
		assertThat(EnginePriority.level(0, 0)).isLessThan(EnginePriority.level(1, 15));
		assertThat(EnginePriority.level(Integer.MAX_VALUE, 0)).isEqualTo(EnginePriority.MAX_PRIORITY * 16 + 15);
		flood.forEach((ticket) -> ticket.release(-1));
	}

	@Test
	void withRoundRobinFairnessEveryTenantOfAPriorityHasTheSameEngineLevel() {
		engineTold(EnginePriority.VLLM);
		slots = 100;
		FlowController controller = controller();
		for (int i = 0; i < 10; i++) {
			send(controller, "flood", 0);
		}
		assertThat(controller.enginePriority(send(controller, "quiet", 0))).isEqualTo(-15);
		assertThat(controller.enginePriority(send(controller, "flood", 0))).isEqualTo(-15);
	}

	@Test
	void withPriorityEnginesWorkTheEngineServesFirstGoesAtOnceToASaturatedPoolAndTheRestStillWaits() {
		engineTold(EnginePriority.VLLM);
		FlowController controller = controller(BandPolicy.STRICT, Map.of(), Fairness.TOKENS, 50);
		FlowTicket running = send(controller, "batch", 0);
		FlowTicket batch = send(controller, "batch", 0);
		FlowTicket sheddable = send(controller, "scraps", -1);

		FlowTicket interactive = send(controller, "interactive", 5);
		FlowTicket interactiveAgain = send(controller, "interactive", 5);

		assertThat(outcome(batch)).isNull(); // the lowest level in flight waits at the gateway, as with FIFO engines
		assertThat(outcome(sheddable)).isEqualTo(FlowOutcome.REJECTED_SHEDDABLE);
		assertThat(outcome(interactive)).isEqualTo(FlowOutcome.DISPATCHED); // the engine serves it ahead of batch
		assertThat(outcome(interactiveAgain)).isEqualTo(FlowOutcome.DISPATCHED);
		assertThat(controller.report(POOL).inFlightRequests()).isEqualTo(3);
		running.release(-1);
		interactive.release(-1);
		interactiveAgain.release(-1);
		assertThat(outcome(batch)).isEqualTo(FlowOutcome.DISPATCHED);
	}

	@Test
	void withPriorityEnginesAQuietTenantGoesAtOnceWhileTheTenantFloodingItsBandWaits() {
		engineTold(EnginePriority.SGLANG);
		slots = 3;
		FlowController controller = controller(BandPolicy.STRICT, Map.of(), Fairness.TOKENS, 50);
		FlowTicket quietLong = send(controller, "quiet", 0); // counters: quiet 60
		FlowTicket flood1 = send(controller, "flood", 0); // flood 60
		FlowTicket flood2 = send(controller, "flood", 0); // flood 120; the pool is full
		FlowTicket flood3 = send(controller, "flood", 0);
		FlowTicket flood4 = send(controller, "flood", 0);
		flood1.release(60); // flood3 goes, charged as the tenant that has used most: flood 180

		FlowTicket quiet = send(controller, "quiet", 0);
		FlowTicket flood5 = send(controller, "flood", 0);

		assertThat(controller.enginePriority(flood3)).isEqualTo(0);
		assertThat(outcome(quiet)).isEqualTo(FlowOutcome.DISPATCHED); // the engine serves level 15 before flood3's 0
		assertThat(controller.enginePriority(quiet)).isEqualTo(15);
		assertThat(outcome(flood4)).isNull();
		assertThat(outcome(flood5)).isNull();
		List.of(quietLong, flood2, flood3, quiet).forEach((ticket) -> ticket.release(-1));
		assertThat(outcome(flood4)).isEqualTo(FlowOutcome.DISPATCHED);
		assertThat(outcome(flood5)).isEqualTo(FlowOutcome.DISPATCHED);
	}

	@Test
	void withPriorityEnginesATenantWithARequestWaitingKeepsItsOrderAndWaits() {
		engineTold(EnginePriority.VLLM);
		FlowController controller = controller(BandPolicy.STRICT, Map.of(), Fairness.TOKENS, 50);
		FlowTicket running = send(controller, "batch", 0);
		FlowTicket queued = send(controller, "other", 0); // same level as batch: waits
		FlowTicket higher = send(controller, "other", 2); // its tenant waits in band 0, not in band 2

		assertThat(outcome(queued)).isNull();
		assertThat(outcome(higher)).isEqualTo(FlowOutcome.DISPATCHED);
		running.release(-1);
		higher.release(-1);
		assertThat(outcome(queued)).isEqualTo(FlowOutcome.DISPATCHED);
	}

	@Test
	void withFifoEnginesEveryPriorityWaitsWhileThePoolIsSaturated() {
		FlowController controller = controller();
		send(controller, "batch", 0);
		FlowTicket interactive = send(controller, "interactive", 5);

		assertThat(outcome(interactive)).isNull();
	}
}
