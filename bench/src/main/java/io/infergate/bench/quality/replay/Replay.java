package io.infergate.bench.quality.replay;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;

import io.infergate.bench.quality.workload.BenchRequest;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.Workload.Arrival;
import io.infergate.bench.quality.workload.WorkloadRequests;
import io.infergate.bench.quality.workload.WorkloadRequests.Conversation;
import io.infergate.routing.InferenceRouter;
import io.infergate.routing.RoutingOutcome;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.EngineEventListener;
import io.infergate.sim.engine.EngineRequest;
import io.infergate.sim.engine.KvEventSink;
import io.infergate.sim.engine.MetricsSnapshot;
import io.infergate.sim.engine.VirtualTimeEngine;

/**
 * Replays one workload under one scheduling profile in virtual time: the real router picks a pod for every request,
 * and one simulated engine per pod serves it.
 * <p>
 * A single-threaded discrete-event loop. Its queue holds arrivals and metric scrapes; the engines' own events are
 * their step ends. Each turn takes the earliest of the queue's head and the engines' next events, advances every
 * engine to that instant (completions fire there and may queue follow-up arrivals), then handles one queued event
 * at that instant. Steps due to start at an instant are started only when nothing else is queued for it, so requests
 * arriving at the same instant join the step that starts then, as the engine's time rules say.
 * <ul>
 * <li><b>Scheduling</b> happens at the arrival instant: the request is routed, counted in flight on the chosen
 * endpoint with its estimated tokens as the gateway counts it ({@link Dispatch}), and submitted to that pod's engine.
 * The in-flight count is released when the engine generates the last token.</li>
 * <li><b>Scrapes</b>: every {@value #SCRAPE_INTERVAL_MICROS} µs of virtual time, every endpoint gets a snapshot of
 * its engine's metrics, stamped with the virtual clock; between scrapes the scheduler sees them age, as in
 * production.</li>
 * <li><b>Arrivals</b>: Poisson (exponential gaps at the rate) or closed-loop (each client sends its next request when
 * the previous one ends). Multi-turn conversations send their next turn a think time after the previous reply ends;
 * under Poisson arrivals new conversations start at rate / turns, so requests arrive at about the rate.</li>
 * <li><b>Failures</b>: a request the router gives no endpoint, or that the chosen engine refuses (too long), counts as
 * failed at its arrival.</li>
 * <li><b>KV-cache events</b>: when the profile reads the engine block index ({@code precise-prefix}), every engine
 * hands its event batches in-process to that index at the end of each step, the objects a ZeroMQ subscriber would
 * decode, with no transport delay.</li>
 * </ul>
 * Everything random derives from the workload's seed, and the loop has no wall-clock input, so a replay repeats
 * exactly; only {@link RequestRecord#schedulerNanos()} is wall time.
 */
public final class Replay {

	public static final String POOL = "bench";

	public static final String MODEL = "bench-model";

	/** The scrape interval: GIE/llm-d's {@code --refresh-metrics-interval} default, 50 ms. */
	public static final long SCRAPE_INTERVAL_MICROS = 50_000;

	private static final int ARRIVALS = 101;

	private static final int PICKER = 102;

	/** Told of every request that ends, completed or failed. */
	@FunctionalInterface
	public interface Progress {

		Progress NONE = () -> {
		};

		void requestEnded();
	}

	private final Workload workload;

	private final String policy;

	private final double ratePerSecond;

	private final Progress progress;

	private final VirtualClock clock = new VirtualClock();

	private final PriorityQueue<Event> events = new PriorityQueue<>(
			Comparator.comparingLong(Event::timeMicros).thenComparingLong(Event::sequence));

	private final WorkloadRequests requests;

	private final SplittableRandom arrivalGaps;

	private final List<Pod> pods = new ArrayList<>();

	private final Map<Endpoint, Pod> podsByEndpoint = new IdentityHashMap<>();

	private final List<RequestRecord> measured = new ArrayList<>();

	private InferenceRouter router;

	private long sequence;

	private long reserved;

	private long issued;

	private long ended;

	private long completed;

	private long failed;

	private int nextConversation;

	private long[] windowStartCounters = new long[3];

	/** The request being routed, for the oracle scorer. */
	private int[] routedPromptTokens;

	private String routedAdapter;

	/**
	 * @param ratePerSecond the Poisson rate to use (one rung of a ladder), ignored for closed-loop arrivals
	 */
	public Replay(Workload workload, String policy, double ratePerSecond, Progress progress) {
		this.workload = workload;
		this.policy = policy;
		this.ratePerSecond = ratePerSecond;
		this.progress = progress;
		this.requests = new WorkloadRequests(workload);
		this.arrivalGaps = new SplittableRandom(workload.seed() * 31 + ARRIVALS);
	}

	/** Names of the profiles a replay can run: the shipped scheduling profiles and the bench's {@code oracle}. */
	public static Set<String> policies() {
		return RoutingContext.profileNames();
	}

	public RunResult run() {
		List<URI> uris = new ArrayList<>();
		for (int i = 0; i < workload.cluster().pods(); i++) {
			uris.add(URI.create("http://pod-" + i + ".bench:8000"));
		}
		PoolProperties.Pool pool = new PoolProperties.Pool();
		pool.setEndpoints(uris);
		pool.setProfile(policy);
		EndpointRegistry registry = new EndpointRegistry(Map.of(POOL, pool));
		SplittableRandom pickerRandom = new SplittableRandom(workload.seed() * 31 + PICKER);
		try (RoutingContext context = RoutingContext.start(clock, registry, new EngineCacheOracle(), pickerRandom)) {
			this.router = context.router();
			registry.sync(POOL, uris);
			List<Endpoint> endpoints = registry.pool(POOL).endpoints();
			EngineBlockIndex engineBlocks = context.engineBlockIndexReadBy(policy);
			for (int i = 0; i < endpoints.size(); i++) {
				Endpoint endpoint = endpoints.get(i);
				KvEventSink kvEvents = (engineBlocks != null) ? (batch) -> engineBlocks.apply(endpoint.id(), batch)
						: KvEventSink.NONE;
				Pod pod = new Pod(i, endpoint, workload.cluster().engineConfig(i), kvEvents);
				pods.add(pod);
				podsByEndpoint.put(pod.endpoint, pod);
			}
			schedule(0, this::scrape);
			startArrivals();
			loop();
		}
		return result();
	}

	private void loop() {
		long total = workload.totalRequests();
		while (ended < total) {
			long queued = events.isEmpty() ? Long.MAX_VALUE : events.peek().timeMicros();
			long engineNext = Long.MAX_VALUE;
			for (Pod pod : pods) {
				engineNext = Math.min(engineNext, pod.engine.nextEventMicros());
			}
			long now = Math.min(queued, engineNext);
			if (now == Long.MAX_VALUE) {
				throw new IllegalStateException("replay stalled: " + ended + " of " + total
						+ " requests ended and nothing left to happen");
			}
			for (Pod pod : pods) {
				pod.engine.advanceTo(Math.max(now, pod.engine.nowMicros()));
			}
			clock.setMicros(now);
			if (!events.isEmpty() && events.peek().timeMicros() == now) {
				events.poll().action().run();
				continue;
			}
			// Nothing else happens at this instant: start the steps due now.
			for (Pod pod : pods) {
				if (pod.engine.nextEventMicros() <= now) {
					pod.engine.advanceTo(now + 1);
				}
			}
		}
	}

	private void schedule(long atMicros, Runnable action) {
		events.add(new Event(atMicros, sequence++, action));
	}

	private void scrape() {
		long now = clock.nowMicros();
		boolean busy = false;
		for (Pod pod : pods) {
			MetricsSnapshot metrics = pod.engine.metrics();
			pod.endpoint.publish(new EndpointSnapshot(new EndpointMetrics(metrics.numRequestsWaiting(),
					metrics.numRequestsRunning(), metrics.kvCacheUsage(), metrics.blockSize(), metrics.numKvBlocks(),
					metrics.maxLoras(), Set.copyOf(metrics.runningLoraAdapters()),
					Set.copyOf(metrics.waitingLoraAdapters())), clock.millis()));
			pod.endpoint.setReady(true);
			busy |= pod.engine.nextEventMicros() != Long.MAX_VALUE;
		}
		if (busy || !events.isEmpty()) {
			schedule(now + SCRAPE_INTERVAL_MICROS, this::scrape);
		}
	}

	private void startArrivals() {
		Arrival arrival = workload.arrival();
		boolean closedLoop = arrival.type() == Arrival.Type.CLOSED_LOOP;
		if (requests.conversational()) {
			if (closedLoop) {
				for (int client = 0; client < arrival.concurrency(); client++) {
					startConversation(0);
				}
			}
			else {
				scheduleConversationStart(0);
			}
		}
		else if (closedLoop) {
			for (int client = 0; client < arrival.concurrency(); client++) {
				sendNextOnClient(0);
			}
		}
		else {
			scheduleNextArrival(0);
		}
	}

	private boolean reserve() {
		if (reserved >= workload.totalRequests()) {
			return false;
		}
		reserved++;
		return true;
	}

	private long exponentialGapMicros(double perSecond) {
		return Math.round(-Math.log(1 - arrivalGaps.nextDouble()) / perSecond * 1e6);
	}

	/** Poisson arrivals of independent requests. */
	private void scheduleNextArrival(long afterMicros) {
		if (!reserve()) {
			return;
		}
		long at = afterMicros + exponentialGapMicros(ratePerSecond);
		schedule(at, () -> {
			send(requests.request(issued), FollowUp.NONE);
			scheduleNextArrival(at);
		});
	}

	/** A closed-loop client's next independent request, at {@code atMicros}. */
	private void sendNextOnClient(long atMicros) {
		if (reserve()) {
			schedule(atMicros, () -> send(requests.request(issued), this::sendNextOnClient));
		}
	}

	/** Poisson starts of conversations, at rate / turns. */
	private void scheduleConversationStart(long afterMicros) {
		int turns = multiTurnShape().turns();
		long at = afterMicros + exponentialGapMicros(ratePerSecond / turns);
		schedule(at, () -> {
			if (reserved < workload.totalRequests() && startConversation(at)) {
				scheduleConversationStart(at);
			}
		});
	}

	/** Sends the first turn of the next conversation at the current instant, if requests and conversations remain. */
	private boolean startConversation(long atMicros) {
		if (nextConversation >= multiTurnShape().conversations() || !reserve()) {
			return false;
		}
		Conversation conversation = requests.conversation(nextConversation++);
		schedule(atMicros, () -> sendTurn(conversation, 0));
		return true;
	}

	private Workload.MultiTurn multiTurnShape() {
		Workload.Shape shape = workload.shape();
		return (Workload.MultiTurn) ((shape instanceof Workload.LoraMix mix) ? mix.base() : shape);
	}

	private void sendTurn(Conversation conversation, int turn) {
		send(conversation.turn(turn), (endMicros) -> {
			if (turn + 1 < conversation.turns()) {
				if (reserve()) {
					schedule(endMicros + conversation.thinkMicrosAfter(turn), () -> sendTurn(conversation, turn + 1));
				}
			}
			else if (workload.arrival().type() == Arrival.Type.CLOSED_LOOP) {
				startConversation(endMicros);
			}
		});
	}

	/** What to do when a request ends (completed or failed), at that instant. */
	@FunctionalInterface
	private interface FollowUp {

		FollowUp NONE = (endMicros) -> {
		};

		void requestEnded(long endMicros);
	}

	/** Routes and submits one request at the current instant. */
	private void send(BenchRequest benchRequest, FollowUp followUp) {
		long now = clock.nowMicros();
		long index = issued++;
		if (index == workload.warmup()) {
			windowStartCounters = engineCounters();
		}
		RequestRecord record = new RequestRecord(index, now);
		if (index >= workload.warmup()) {
			measured.add(record);
		}
		String promptText = benchRequest.gatewayPromptText();
		int[] promptTokens = benchRequest.engineTokens();
		String adapter = benchRequest.adapter();
		InferenceRequest request = new InferenceRequest((adapter != null) ? adapter : MODEL, POOL, MODEL, adapter,
				promptText, InferenceRequest.estimateTokens(promptText.length()), benchRequest.outputTokens(), true,
				benchRequest.sessionKey(), 0);
		routedPromptTokens = promptTokens;
		routedAdapter = adapter;
		long startNanos = System.nanoTime();
		RoutingOutcome outcome = router.route(request, List.of());
		record.schedulerNanos = System.nanoTime() - startNanos;
		routedPromptTokens = null;
		Pod pod = outcome.hasEndpoint() ? podsByEndpoint.get(outcome.chosen()) : null;
		if (pod == null
				|| pod.engine.rejectionReason(promptTokens.length, benchRequest.outputTokens(), adapter) != null) {
			record.failed = true;
			failed++;
			ended++;
			progress.requestEnded();
			followUp.requestEnded(now);
			return;
		}
		record.pod = pod.index;
		Dispatch dispatch = new Dispatch(request);
		dispatch.dispatchTo(pod.endpoint);
		// A pod can be 1 µs ahead only after zero-time steps started at this instant.
		pod.engine.submit(Math.max(now, pod.engine.nowMicros()), new EngineRequest(promptTokens, adapter,
				benchRequest.outputTokens(), new Sent(record, dispatch, followUp)));
	}

	private record Sent(RequestRecord record, Dispatch dispatch, FollowUp followUp) {
	}

	/** Σ over pods of prefix-cache query tokens, hit tokens and preemptions. */
	private long[] engineCounters() {
		long[] counters = new long[3];
		for (Pod pod : pods) {
			MetricsSnapshot metrics = pod.engine.metrics();
			counters[0] += metrics.prefixCacheQueryTokens();
			counters[1] += metrics.prefixCacheHitTokens();
			counters[2] += metrics.numPreemptions();
		}
		return counters;
	}

	private RunResult result() {
		long[] end = engineCounters();
		long[] perPod = new long[pods.size()];
		long endMicros = 0;
		for (RequestRecord record : measured) {
			if (record.pod >= 0) {
				perPod[record.pod]++;
			}
			endMicros = Math.max(endMicros, record.finishMicros);
		}
		return new RunResult(policy, workload.arrival().type() == Arrival.Type.CLOSED_LOOP ? Double.NaN : ratePerSecond,
				List.copyOf(measured), issued, completed, failed, end[0] - windowStartCounters[0],
				end[1] - windowStartCounters[1], end[2] - windowStartCounters[2], perPod, endMicros);
	}

	private record Event(long timeMicros, long sequence, Runnable action) {
	}

	/** One simulated model server: its engine and the endpoint the router knows it by. */
	private final class Pod implements EngineEventListener {

		final int index;

		final Endpoint endpoint;

		final VirtualTimeEngine engine;

		Pod(int index, Endpoint endpoint, EngineConfig config, KvEventSink kvEvents) {
			this.index = index;
			this.endpoint = endpoint;
			this.engine = new VirtualTimeEngine(config, this, VirtualClock.EPOCH_MILLIS / 1000.0, kvEvents);
		}

		@Override
		public void onFirstToken(EngineRequest request, long timeMicros) {
			((Sent) request.attachment()).record.firstTokenMicros = timeMicros;
		}

		@Override
		public void onFinished(EngineRequest request, long timeMicros) {
			Sent sent = (Sent) request.attachment();
			sent.record.finishMicros = timeMicros;
			sent.record.outputTokens = request.numOutputTokens();
			sent.dispatch.finish();
			completed++;
			ended++;
			progress.requestEnded();
			sent.followUp.requestEnded(timeMicros);
		}
	}

	/** The oracle reads the engine behind each endpoint, for the request being routed. */
	private final class EngineCacheOracle implements PrefixCacheOracle {

		@Override
		public int promptTokens() {
			return (routedPromptTokens != null) ? routedPromptTokens.length : 0;
		}

		@Override
		public int cachedPrefixTokens(Endpoint endpoint) {
			Pod pod = podsByEndpoint.get(endpoint);
			return (pod != null && routedPromptTokens != null)
					? pod.engine.cachedPrefixTokens(routedPromptTokens, routedAdapter) : 0;
		}
	}
}
