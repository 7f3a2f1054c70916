package io.infergate.routing.scheduling.picker;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.prefix.ConsistentHashRing;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.load.EngineReportedLoad;

import static io.infergate.routing.scheduling.Fixtures.NOW_MILLIS;
import static io.infergate.routing.scheduling.Fixtures.POOL;
import static io.infergate.routing.scheduling.Fixtures.cycle;
import static io.infergate.routing.scheduling.Fixtures.metrics;
import static io.infergate.routing.scheduling.picker.PickerFixtures.endpoints;
import static org.assertj.core.api.Assertions.assertThat;

class ChwblPickerTests {

	private static final double FACTOR = 1.25;

	private final ChwblPicker picker = new ChwblPicker(ChwblPicker.NAME, ChwblPicker.Parameters.defaults());

	@Test
	void nameIsTheYamlKey() {
		assertThat(picker.name()).isEqualTo(ChwblPicker.NAME).isEqualTo("chwbl");
	}

	@Test
	void anIdlePoolSendsEachKeyToItsHomeOnTheRing() {
		List<Endpoint> pool = endpoints(4);
		String prompt = "System: answer billing questions for Acme. " + "x".repeat(200);

		int picked = pick(picker, pool, prompt, null);

		assertThat(pool.get(picked).id()).isEqualTo(walk(pool, prompt, null).get(0));
		assertThat(pick(picker, pool, prompt + " a different question", null)).isEqualTo(picked);
	}

	@Test
	void theKeyIsThePromptsFirstHundredCharactersAndTheAdapter() {
		List<Endpoint> pool = endpoints(16);
		String head = "h".repeat(100);
		Set<Integer> byAdapter = new HashSet<>();
		for (int i = 0; i < 20; i++) {
			assertThat(pick(picker, pool, head + "tail " + i, null)).isEqualTo(pick(picker, pool, head, null));
			byAdapter.add(pick(picker, pool, head, "adapter-" + i));
		}

		assertThat(byAdapter).as("one prompt head with 20 adapters lands on several endpoints").hasSizeGreaterThan(4);
	}

	@Test
	void gatewayReplicasThatLearntTheEndpointsInAnotherOrderPickAlike() {
		List<Endpoint> pool = endpoints(10);
		List<Endpoint> shuffled = new ArrayList<>(pool);
		Collections.shuffle(shuffled, new Random(3));
		ChwblPicker replicaA = new ChwblPicker(ChwblPicker.NAME, ChwblPicker.Parameters.defaults());
		ChwblPicker replicaB = new ChwblPicker(ChwblPicker.NAME, ChwblPicker.Parameters.defaults());
		replicaB.pick(cycle(request("warm-up", null)), shuffled.subList(0, 5), new double[5]);

		for (int key = 0; key < 2_000; key++) {
			String prompt = "conversation " + key;
			assertThat(shuffled.get(pick(replicaB, shuffled, prompt, null)))
				.isSameAs(pool.get(pick(replicaA, pool, prompt, null)));
		}
	}

	@Test
	void addingAnEndpointToEightMovesAboutOneNinthOfTheKeysAllToTheNewOne() {
		List<Endpoint> eight = endpoints(8);
		List<Endpoint> nine = endpoints(9);
		int keys = 10_000;
		int moved = 0;
		for (int key = 0; key < keys; key++) {
			String prompt = "tenant-" + key + " system prompt";
			Endpoint before = eight.get(pick(picker, eight, prompt, null));
			Endpoint after = nine.get(pick(picker, nine, prompt, null));
			if (!before.id().equals(after.id())) {
				moved++;
				assertThat(after).isSameAs(nine.get(8));
			}
		}

		// expected 10,000 / 9 ≈ 1,111; 256 virtual nodes keep a member's share within a few percent
		assertThat(moved).isBetween(850, 1_400);
	}

	@Test
	void aHomeOverTheBoundPassesTheRequestToTheNextEndpointWithinIt() {
		List<Endpoint> pool = endpoints(4);
		String prompt = "hot system prompt";
		List<EndpointId> walk = walk(pool, prompt, null);
		Endpoint home = byId(pool, walk.get(0));
		inFlight(home, 10);
		for (Endpoint endpoint : pool) {
			if (endpoint != home) {
				inFlight(endpoint, 2);
			}
		}

		// T = 16, bound = 1.25 · 17 / 4 = 5.31: home (10 + 1) fails, the next on the ring (2 + 1) passes
		assertThat(pool.get(pick(picker, pool, prompt, null)).id()).isEqualTo(walk.get(1));
	}

	@Test
	void theBoundReadsTheProfilesLoad() {
		List<Endpoint> pool = endpoints(4);
		String prompt = "hot system prompt";
		List<EndpointId> walk = walk(pool, prompt, null);
		// this replica has nothing in flight; the engines report 10 requests on the home and 2 on every other
		for (Endpoint endpoint : pool) {
			int running = endpoint.id().equals(walk.get(0)) ? 10 : 2;
			endpoint.publish(new EndpointSnapshot(metrics(0, running, 0.1), NOW_MILLIS, 0));
		}
		SchedulingCycle engineLoad = cycle(request(prompt, null));
		engineLoad.useLoad(new EngineReportedLoad());

		// T = 16, bound = 1.25 · 17 / 4 = 5.31 as above; in flight alone (T = 0) the home would take it
		assertThat(pool.get(picker.pick(engineLoad, pool, new double[4])).id()).isEqualTo(walk.get(1));
		assertThat(pool.get(pick(picker, pool, prompt, null)).id()).isEqualTo(walk.get(0));
	}

	@Test
	void anEndpointFilteredOutIsSkippedLikeANonMember() {
		List<Endpoint> pool = endpoints(5);
		String prompt = "filtered home";
		List<EndpointId> walk = walk(pool, prompt, null);
		List<Endpoint> withoutHome = new ArrayList<>(pool);
		withoutHome.remove(byId(pool, walk.get(0)));

		assertThat(withoutHome.get(pick(picker, withoutHome, prompt, null)).id()).isEqualTo(walk.get(1));
	}

	@Test
	void aBurstOnOneKeyNeverTakesAnEndpointPastTheBound() {
		int n = 4;
		List<Endpoint> pool = endpoints(n);
		// only while T < (n − c)/(c − 1) = 11 can no candidate pass; the key's home then takes the request
		double idleRange = (n - FACTOR) / (FACTOR - 1);
		int total = 0;
		for (int request = 0; request < 1_000; request++) {
			Endpoint chosen = pool.get(pick(picker, pool, "one hot key", null));
			chosen.acquire(1);
			total++;
			if (total - 1 >= idleRange) {
				assertThat((double) chosen.inFlightRequests()).isLessThanOrEqualTo(FACTOR * total / n);
			}
		}

		int ceiling = (int) Math.ceil(FACTOR * total / n);
		List<Integer> loads = pool.stream().map(Endpoint::inFlightRequests).toList();
		assertThat(loads).allSatisfy((load) -> assertThat(load).isLessThanOrEqualTo(ceiling));
		Endpoint home = byId(pool, walk(pool, "one hot key", null).get(0));
		assertThat(home.inFlightRequests()).as("the home keeps the most").isEqualTo(Collections.max(loads));
	}

	@Test
	void aSingleCandidateIsPicked() {
		assertThat(pick(picker, endpoints(1), "anything", null)).isZero();
	}

	private static int pick(ChwblPicker picker, List<Endpoint> candidates, String prompt, String adapter) {
		SchedulingCycle cycle = cycle(request(prompt, adapter));
		return picker.pick(cycle, candidates, new double[candidates.size()]);
	}

	/** The distinct endpoints in walk order from the key, computed from a ring built independently. */
	private static List<EndpointId> walk(List<Endpoint> pool, String prompt, String adapter) {
		List<EndpointId> ids = pool.stream().map(Endpoint::id).toList();
		ConsistentHashRing ring = ConsistentHashRing.of(ids, 256);
		List<EndpointId> order = new ArrayList<>();
		int point = ring.pointAtOrAfter(ConsistentHashRing.keyHash(prompt, 100, adapter));
		for (int step = 0; step < ring.pointCount() && order.size() < ids.size(); step++) {
			EndpointId owner = ring.member(ring.ownerAt(point));
			if (!order.contains(owner)) {
				order.add(owner);
			}
			point = ring.nextPoint(point);
		}
		return order;
	}

	private static Endpoint byId(List<Endpoint> pool, EndpointId id) {
		return pool.stream().filter((endpoint) -> endpoint.id().equals(id)).findFirst().orElseThrow();
	}

	private static void inFlight(Endpoint endpoint, int requests) {
		for (int i = 0; i < requests; i++) {
			endpoint.acquire(1);
		}
	}

	private static InferenceRequest request(String prompt, String adapter) {
		return new InferenceRequest("demo-llama", POOL, "meta-llama/Llama-3.1-8B-Instruct", adapter, prompt,
				InferenceRequest.estimateTokens(prompt.length()), 64, false, null, 0);
	}

	@Test
	void doesNotReadTheTotals() {
		assertThat(picker.readsTotals()).isFalse();
		assertThat(picker.pickProbabilities(new double[] { 0.1, 0.9 })).isNull();
	}
}
