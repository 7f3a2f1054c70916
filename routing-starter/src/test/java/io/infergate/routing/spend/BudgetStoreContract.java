package io.infergate.routing.spend;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.infergate.routing.limits.LimitScope;
import io.infergate.routing.scheduling.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link BudgetStore} does, on a clock the test moves: hard budgets refuse what would go beyond them,
 * counting what running requests hold; a settle replaces the hold by the real cost; day, month and rolling windows
 * start again from nothing at their boundary; soft budgets never refuse and are reported once when reached.
 * {@link #replicas} stores share their counters (two gateway replicas), or are the same store for one that cannot.
 */
abstract class BudgetStoreContract {

	static final long CENT = 10_000_000L;

	/** 2026-12-07T23:59:58Z. */
	static final long LATE_EVENING = Instant.parse("2026-12-07T23:59:58Z").toEpochMilli();

	final MutableClock clock = new MutableClock(LATE_EVENING);

	final List<String> reached = new CopyOnWriteArrayList<>();

	final BudgetListener listener = (line, window, spent) -> reached.add(line.describe() + " " + window.id() + " " + spent);

	/** A store on {@link #clock}, telling {@link #listener}, whose counters are named under {@code prefix}. */
	abstract BudgetStore store(String prefix);

	/** Two stores sharing counters under {@code prefix}, as two replicas do. */
	abstract List<BudgetStore> replicas(String prefix);

	static BudgetLine line(String subject, double amount, BudgetPeriod period, BudgetMode mode) {
		return new BudgetLine(LimitScope.KEY, subject, new Budget(amount, period, mode));
	}

	BudgetHold reserve(BudgetStore store, List<BudgetLine> lines, long cost) {
		return store.reserve(lines, cost, clock.instant()).toCompletableFuture().join();
	}

	BudgetState read(BudgetStore store, BudgetLine line) {
		return store.read(List.of(line), clock.instant()).toCompletableFuture().join().get(0);
	}

	/** Waits until what was settled is visible: at once in memory, after the linger in Redis. */
	void awaitSpent(BudgetStore store, BudgetLine line, long spent) {
		await().atMost(java.time.Duration.ofSeconds(5)).until(() -> read(store, line).spentNanos() == spent);
	}

	@Test
	void aHardBudgetAdmitsWhileWhatIsSpentAndHeldLeavesRoomForTheMostARequestMayCost() {
		BudgetStore store = store("hard:");
		List<BudgetLine> lines = List.of(line("hard", 0.05, BudgetPeriod.DAY, BudgetMode.HARD));
		List<BudgetHold> holds = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			holds.add(reserve(store, lines, CENT));
		}
		BudgetHold sixth = reserve(store, lines, CENT);

		assertThat(holds).allMatch(BudgetHold::admitted);
		assertThat(sixth.status()).isEqualTo(BudgetHold.Status.EXHAUSTED);
		assertThat(sixth.exhausted().heldNanos()).isEqualTo(5 * CENT);
		assertThat(sixth.exhausted().spentNanos()).isZero();
		assertThat(sixth.exhausted().resetsAt()).isEqualTo(Instant.parse("2026-12-08T00:00:00Z"));

		holds.get(0).settle(4_000_000);
		awaitSpent(store, lines.get(0), 4_000_000);
		assertThat(reserve(store, lines, CENT).admitted()).as("4 spent + 40 held + 10 > 50").isFalse();
		holds.get(1).settle(0);
		await().atMost(java.time.Duration.ofSeconds(5)).until(() -> read(store, lines.get(0)).heldNanos() == 3 * CENT);
		assertThat(reserve(store, lines, CENT).admitted()).as("4 spent + 30 held + 10 <= 50").isTrue();
	}

	@Test
	void aRequestThatMayCostMoreThanTheWholeBudgetHoldsAllOfItAndFitsOnlyAnUntouchedBudget() {
		BudgetStore store = store("large:");
		List<BudgetLine> lines = List.of(line("large", 0.02, BudgetPeriod.DAY, BudgetMode.HARD));

		BudgetHold first = reserve(store, lines, 10 * CENT);
		BudgetHold second = reserve(store, lines, 1);

		assertThat(first.admitted()).isTrue();
		assertThat(second.admitted()).isFalse();
		assertThat(second.exhausted().heldNanos()).isEqualTo(2 * CENT);
	}

	@Test
	void concurrentRequestsOnTwoReplicasNeverSpendBeyondTheBudget() throws Exception {
		List<BudgetStore> replicas = replicas("race:");
		List<BudgetLine> lines = List.of(line("race", 1.0, BudgetPeriod.MONTH, BudgetMode.HARD),
				new BudgetLine(LimitScope.TENANT, "race", new Budget(100.0, BudgetPeriod.DAY, BudgetMode.HARD)));
		ExecutorService threads = Executors.newFixedThreadPool(8);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Integer>> admitted = new ArrayList<>();
		for (int t = 0; t < 8; t++) {
			BudgetStore store = replicas.get(t % 2);
			admitted.add(threads.submit(() -> {
				start.await();
				int count = 0;
				for (int i = 0; i < 40; i++) {
					BudgetHold hold = reserve(store, lines, CENT);
					if (hold.admitted()) {
						count++;
						hold.settle(CENT);
					}
				}
				return count;
			}));
		}
		start.countDown();
		int total = 0;
		for (Future<Integer> count : admitted) {
			total += count.get(60, TimeUnit.SECONDS);
		}
		threads.shutdown();

		assertThat(total).as("1.00 at 0.01 a request").isEqualTo(100);
		awaitSpent(replicas.get(0), lines.get(0), 100 * CENT);
		assertThat(read(replicas.get(1), lines.get(1)).spentNanos()).isEqualTo(100 * CENT);
	}

	@Test
	void aDayBudgetStartsAgainFromNothingAtMidnightAndASettleFromTheDayBeforeStaysThere() {
		BudgetStore store = store("day:");
		List<BudgetLine> lines = List.of(line("day", 0.03, BudgetPeriod.DAY, BudgetMode.HARD));
		BudgetHold lastOfTheDay = reserve(store, lines, 3 * CENT);
		assertThat(reserve(store, lines, CENT).admitted()).isFalse();

		clock.advanceMillis(2_000);

		BudgetHold nextDay = reserve(store, lines, 3 * CENT);
		assertThat(nextDay.admitted()).isTrue();
		lastOfTheDay.settle(3 * CENT);
		nextDay.settle(CENT);
		awaitSpent(store, lines.get(0), CENT);
		BudgetState state = read(store, lines.get(0));
		assertThat(state.window().id()).isEqualTo("2026-12-08");
		assertThat(state.heldNanos()).isZero();
		assertThat(state.resetsAt()).isEqualTo(Instant.parse("2026-12-09T00:00:00Z"));
	}

	@Test
	void aMonthBudgetCountsTheCalendarMonth() {
		BudgetStore store = store("month:");
		BudgetLine month = line("month", 0.01, BudgetPeriod.MONTH, BudgetMode.HARD);
		reserve(store, List.of(month), CENT).settle(CENT);
		awaitSpent(store, month, CENT);
		assertThat(reserve(store, List.of(month), 1).admitted()).isFalse();

		clock.advanceMillis(TimeUnit.DAYS.toMillis(24));
		assertThat(reserve(store, List.of(month), 1).admitted()).as("2026-12-31T23:59:58Z").isFalse();
		clock.advanceMillis(2_000);

		assertThat(reserve(store, List.of(month), CENT).admitted()).as("2027-01-01").isTrue();
		assertThat(read(store, month).window().id()).isEqualTo("2027-01");
	}

	@Test
	void aRollingBudgetLetsSpendGo24HoursAfterTheMinuteItWasAdmittedIn() {
		BudgetStore store = store("rolling:");
		BudgetLine rolling = line("rolling", 0.02, BudgetPeriod.ROLLING_24H, BudgetMode.HARD);
		reserve(store, List.of(rolling), CENT).settle(CENT);
		awaitSpent(store, rolling, CENT);
		clock.advanceMillis(TimeUnit.HOURS.toMillis(6));
		reserve(store, List.of(rolling), CENT).settle(CENT);
		awaitSpent(store, rolling, 2 * CENT);

		BudgetHold refused = reserve(store, List.of(rolling), 1);
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.exhausted().resetsAt()).as("24 hours after the first minute with spend")
			.isEqualTo(Instant.parse("2026-12-08T23:59:00Z"));

		clock.advanceMillis(TimeUnit.HOURS.toMillis(18) - 60_000);
		assertThat(reserve(store, List.of(rolling), 1).admitted()).as("23:58 the next day").isFalse();
		clock.advanceMillis(60_000);
		assertThat(reserve(store, List.of(rolling), CENT).admitted()).as("23:59 the next day").isTrue();
		assertThat(read(store, rolling).spentNanos()).isEqualTo(CENT);

		clock.advanceMillis(TimeUnit.DAYS.toMillis(3));
		assertThat(read(store, rolling).spentNanos()).as("days later").isZero();
	}

	@Test
	void aSoftBudgetNeverRefusesAndIsReportedOnceWhenReached() {
		BudgetStore store = store("soft:");
		BudgetLine soft = line("soft", 0.02, BudgetPeriod.DAY, BudgetMode.SOFT);
		for (int i = 0; i < 5; i++) {
			BudgetHold hold = reserve(store, List.of(soft), CENT);
			assertThat(hold.admitted()).isTrue();
			hold.settle(CENT);
		}
		awaitSpent(store, soft, 5 * CENT);

		assertThat(reached).containsExactly("key 'soft' 2026-12-07 " + 2 * CENT);
	}

	@Test
	void aBudgetReachedOnTwoReplicasIsReportedOnceInAll() {
		List<BudgetStore> replicas = replicas("once:");
		BudgetLine hard = line("once", 0.04, BudgetPeriod.DAY, BudgetMode.HARD);
		for (int i = 0; i < 4; i++) {
			reserve(replicas.get(i % 2), List.of(hard), CENT).settle(CENT);
		}
		awaitSpent(replicas.get(0), hard, 4 * CENT);

		await().atMost(java.time.Duration.ofSeconds(5)).until(() -> reached.size() == 1);
		assertThat(reached).containsExactly("key 'once' 2026-12-07 " + 4 * CENT);
	}

	@Test
	void aRequestWithABudgetOfEachKindIsRefusedByTheHardOneOnly() {
		BudgetStore store = store("kinds:");
		BudgetLine soft = new BudgetLine(LimitScope.TENANT, "kinds", new Budget(0.0, BudgetPeriod.DAY, BudgetMode.SOFT));
		BudgetLine hard = new BudgetLine(LimitScope.MODEL, "kinds", new Budget(0.01, BudgetPeriod.DAY, BudgetMode.HARD));
		reserve(store, List.of(soft, hard), CENT).settle(CENT);
		awaitSpent(store, hard, CENT);

		BudgetHold refused = reserve(store, List.of(soft, hard), 1);

		assertThat(refused.exhausted().line()).isEqualTo(hard);
		assertThat(read(store, soft).spentNanos()).isEqualTo(CENT);
		assertThat(ZoneOffset.UTC).isEqualTo(clock.getZone());
	}
}
