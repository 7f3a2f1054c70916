package io.infergate.bench.quality.replay;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.infergate.bench.quality.trace.Trace;
import io.infergate.bench.quality.workload.BenchRequest;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.Workload.Arrival;
import io.infergate.bench.quality.workload.Workload.Tenant;
import io.infergate.bench.quality.workload.WorkloadRequests;
import io.infergate.bench.quality.workload.WorkloadRequests.Conversation;
import io.infergate.routing.limits.LimitDecision;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.engine.Resolution;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.openai.StreamOptions;
import io.infergate.routing.flowcontrol.FlowDecision;
import io.infergate.routing.flowcontrol.FlowTicket;
import io.infergate.routing.flowcontrol.PoolFlowReport;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.EnginePriority;
import io.infergate.routing.pool.PoolProperties;
import io.infergate.routing.prefix.EngineBlockIndex;
import io.infergate.routing.replica.DispatchChannel;
import io.infergate.routing.replica.DispatchSharing;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.EngineEventListener;
import io.infergate.sim.engine.EngineRequest;
import io.infergate.sim.engine.KvEventSink;
import io.infergate.sim.engine.MetricsSnapshot;
import io.infergate.sim.engine.VirtualTimeEngine;

/**
 * Replays one workload under one policy in virtual time: the gateway's own
 * {@link io.infergate.routing.engine.InferenceEngine} decides every request (model resolution, limits, flow control,
 * scheduling, through the same facade the gateway's inference route calls), and one simulated engine per pod serves
 * it.
 * <p>
 * A single-threaded discrete-event loop. Its queue holds arrivals and metric scrapes; the engines' own events are
 * their step ends. Each turn takes the earliest of the queue's head and the engines' next events, advances every
 * engine to that instant (completions fire there and may queue follow-up arrivals), then handles one queued event
 * at that instant. Steps due to start at an instant are started only when nothing else is queued for it, so requests
 * arriving at the same instant join the step that starts then, as the engine's time rules say.
 * <ul>
 * <li><b>Model resolution and limits</b> come first, at the arrival instant: the request's model (the base model,
 * or a LoRA adapter of it, as the simulated pool's {@code /v1/models} would list them) resolves to the pool, and the
 * caller's limits are checked and reserved (none apply unless configured); a limited request counts as rejected,
 * and a request ending settles its limits with the tokens the engine reports.</li>
 * <li><b>Flow control</b> comes next: the gateway's {@link FlowController} (its
 * {@code infergate.flow-control.*} defaults unless the workload turns it on or off, the saturation detector reading
 * the scraped snapshots) dispatches the request at once, holds it, or answers 429. The caller is the request's
 * tenant (its name, priority and weight) or the anonymous one. While requests wait, the event loop sweeps the
 * controller on its {@code sweep-interval} ticks, as the gateway's timer does; a request ending releases its capacity
 * with the prompt and output tokens the engine reports, which may let waiting requests go at that instant. A request
 * that waited is routed when it is let go, and its TTFT still runs from its arrival.</li>
 * <li><b>Scheduling</b> happens when flow control lets the request go: it is routed, counted in flight on the chosen
 * endpoint with its estimated tokens as the gateway counts it ({@link Dispatch}), and submitted to that pod's engine.
 * The in-flight count is released when the engine generates the last token.</li>
 * <li><b>Scrapes</b>: every {@value #SCRAPE_INTERVAL_MICROS} µs of virtual time, every endpoint gets a snapshot of
 * its engine's metrics, stamped with the virtual clock; between scrapes the scheduler sees them age, as in
 * production.</li>
 * <li><b>Arrivals</b>: Poisson (exponential gaps at the rate) or closed-loop (each client sends its next request when
 * the previous one ends). Multi-turn conversations send their next turn a think time after the previous reply ends;
 * under Poisson arrivals new conversations start at rate / turns, so requests arrive at about the rate.</li>
 * <li><b>KV-cache events</b>: when the profile reads the engine block index ({@code precise-prefix}), every engine
 * hands its event batches in-process to that index of every gateway replica at the end of each step, the objects a
 * ZeroMQ subscriber would decode, with no transport delay.</li>
 * <li><b>Failures</b>: a request the router gives no endpoint, or that the chosen engine refuses (too long), counts as
 * failed when it is routed. A request flow control answers 429 counts as rejected; a closed-loop client or a
 * conversation goes on after its {@code Retry-After}.</li>
 * <li><b>Gateway replicas</b> ({@link Workload#gateways()}): each is its own routing context (prefix index, sessions,
 * round-robin turns), its own endpoints (in-flight counts, snapshots) and its own scrape phase: replica g of N scrapes
 * at g/N of the interval after replica 0 (all of them once at time 0, before traffic). Request i goes to replica
 * i mod N, as a round-robin load balancer in front of them would send it. With dispatch sharing
 * ({@link Policy#dispatchSharing()}), each replica's dispatches reach the others' prefix indexes the propagation
 * delay later, through the same {@link DispatchSharing} the gateway runs over Redis.</li>
 * </ul>
 * Everything random derives from the workload's seed, and the loop has no wall-clock input, so a replay repeats
 * exactly; only {@link RequestRecord#schedulerNanos()} is wall time.
 */
public final class Replay {

	public static final String POOL = "bench";

	public static final String MODEL = "bench-model";

	/** The scrape interval: GIE/llm-d's {@code --refresh-metrics-interval} default, 50 ms. */
	public static final long SCRAPE_INTERVAL_MICROS = 50_000;

	/** Propagation delay of shared dispatches when none is given: about a Redis pub/sub hop within a data centre. */
	public static final long DEFAULT_SHARING_DELAY_MICROS = 1_000;

	private static final int ARRIVALS = 101;

	private static final int PICKER = 102;

	/** Seeds of replicas after the first are spaced by this prime, so each picker draws its own sequence. */
	private static final long REPLICA_SEED_STRIDE = 7919;

	/** Told of every request that ends, completed or failed. */
	@FunctionalInterface
	public interface Progress {

		Progress NONE = () -> {
		};

		void requestEnded();
	}

	private final Workload workload;

	private final Policy policy;

	private final double ratePerSecond;

	private final long sharingDelayMicros;

	private final Progress progress;

	private final VirtualClock clock = new VirtualClock();

	private final PriorityQueue<Event> events = new PriorityQueue<>(
			Comparator.comparingLong(Event::timeMicros).thenComparingLong(Event::sequence));

	private final WorkloadRequests requests;

	private final SplittableRandom arrivalGaps;

	private final List<Pod> pods = new ArrayList<>();

	private final Map<Endpoint, Pod> podsByEndpoint = new IdentityHashMap<>();

	private final List<Gateway> gateways = new ArrayList<>();

	/** Where each session's latest turn went, whichever replica routed it. */
	private final Map<String, Integer> lastPodOfSession = new HashMap<>();

	/** The engine block index of every replica whose profile reads one: each replica subscribes to every pod. */
	private final List<EngineBlockIndex> engineBlockIndexes = new ArrayList<>();

	private final List<RequestRecord> measured = new ArrayList<>();

	private long sequence;

	/** Scrapes in the event queue: the queue holds something else to happen only when it is longer. */
	private int queuedScrapes;

	private long reserved;

	private long issued;

	private long ended;

	private long completed;

	/** When each request completed, warm-up included: the first {@link #completed} entries. */
	private long[] completionMicros = new long[1024];

	private long failed;

	private int nextConversation;

	private long[] windowStartCounters = new long[3];

	private long[] prefixIndexBytes = new long[0];

	/** Whether the gateways' flow control is on: the workload's setting, or the gateway's default. */
	private boolean flowControlOn;

	/** Builds a capture's requests ahead of the loop; null for other workloads. */
	private RequestPrefetcher prefetcher;

	/** Where to look for the next captured request that arrives at its own time. */
	private int nextCapturedArrival;

	/** The host application's properties for every replica's engine context; null in the bench's own process. */
	private Map<String, String> hostProperties;

	/** The request being routed, for the oracle scorer. */
	private int[] routedPromptTokens;

	private String routedAdapter;

	/**
	 * @param policy a profile name, with {@value Policy#DISPATCH_SHARING} for replicas that share their dispatches
	 * @param ratePerSecond the Poisson rate to use (one rung of a ladder), ignored for closed-loop arrivals
	 */
	public Replay(Workload workload, String policy, double ratePerSecond, Progress progress) {
		this(workload, policy, ratePerSecond, DEFAULT_SHARING_DELAY_MICROS, progress);
	}

	/**
	 * @param sharingDelayMicros how long a shared dispatch takes to reach the other replicas, virtual µs
	 */
	public Replay(Workload workload, String policy, double ratePerSecond, long sharingDelayMicros,
			Progress progress) {
		this.workload = workload;
		this.policy = Policy.parse(policy);
		this.ratePerSecond = ratePerSecond;
		this.sharingDelayMicros = sharingDelayMicros;
		this.progress = progress;
		this.requests = new WorkloadRequests(workload);
		this.arrivalGaps = new SplittableRandom(workload.seed() * 31 + ARRIVALS);
	}

	/**
	 * Runs this replay in another Spring application's JVM (the gateway's dashboard runs it so): every replica's
	 * engine context reads the shipped and the bench's profiles and {@code engineProperties} alone, never the host's
	 * configuration files, environment variables or system properties, and leaves the host's logging as it is.
	 *
	 * @param engineProperties Spring properties of every replica's engine context, above the profiles: say, a
	 * profile's definition and weights as {@code infergate.scheduling.profiles.*}
	 * @return this replay
	 */
	public Replay hosted(Map<String, String> engineProperties) {
		this.hostProperties = Map.copyOf(engineProperties);
		return this;
	}

	/** Names of the profiles a replay can run: the shipped scheduling profiles and the bench's {@code oracle}. */
	public static Set<String> policies() {
		return RoutingContext.profileNames();
	}

	/** Whether a policy's profile reads the engines' KV-cache events, so its pods must publish them. */
	public static boolean readsKvEvents(String policy) {
		return RoutingContext.readsEngineBlocks(Policy.parse(policy).profile());
	}

	public RunResult run() {
		List<URI> uris = new ArrayList<>();
		for (int i = 0; i < workload.cluster().pods(); i++) {
			URI uri = URI.create("http://pod-" + i + ".bench:8000");
			uris.add(uri);
			EndpointId id = EndpointId.of(uri);
			KvEventSink kvEvents = (batch) -> {
				for (EngineBlockIndex index : engineBlockIndexes) {
					index.apply(id, batch);
				}
			};
			pods.add(new Pod(i, workload.cluster().engineConfig(i), kvEvents));
		}
		try {
			for (int g = 0; g < workload.gateways(); g++) {
				gateways.add(new Gateway(g, uris));
			}
			flowControlOn = gateways.get(0).flowControl.properties().enabled();
			for (Gateway gateway : gateways) {
				scheduleScrape(0, gateway);
			}
			if (workload.shape() instanceof Workload.Captured captured) {
				prefetcher = new RequestPrefetcher(captured.trace()::request, workload.totalRequests());
			}
			startArrivals();
			loop();
			prefixIndexBytes = gateways.stream()
				.mapToLong((gateway) -> gateway.context.prefixIndex().stats().approximateMemoryBytes())
				.toArray();
		}
		finally {
			if (prefetcher != null) {
				prefetcher.close();
			}
			gateways.forEach(Gateway::close);
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
			// the clock first: requests ending now release flow-control capacity, and what that lets go leaves now
			clock.setMicros(now);
			for (Pod pod : pods) {
				pod.engine.advanceTo(Math.max(now, pod.engine.nowMicros()));
			}
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

	/**
	 * One replica's scrape of every pod. After the first, at time 0, replica g scrapes at its phase g/N of the interval
	 * and every interval after that, while anything is left to happen.
	 */
	private void scrape(Gateway gateway) {
		queuedScrapes--;
		long now = clock.nowMicros();
		boolean busy = false;
		for (Pod pod : pods) {
			MetricsSnapshot metrics = pod.engine.metrics();
			Endpoint endpoint = gateway.endpoints.get(pod.index);
			endpoint.publish(new EndpointSnapshot(new EndpointMetrics(metrics.numRequestsWaiting(),
					metrics.numRequestsRunning(), metrics.kvCacheUsage(), metrics.blockSize(), metrics.numKvBlocks(),
					metrics.maxLoras(), Set.copyOf(metrics.runningLoraAdapters()),
					Set.copyOf(metrics.waitingLoraAdapters())), clock.millis(), endpoint.inFlightRequests()));
			endpoint.setReady(true);
			busy |= pod.engine.nextEventMicros() != Long.MAX_VALUE;
		}
		if (busy || events.size() > queuedScrapes) {
			long phase = SCRAPE_INTERVAL_MICROS * gateway.index / gateways.size();
			scheduleScrape((now == 0) ? phase + SCRAPE_INTERVAL_MICROS : now + SCRAPE_INTERVAL_MICROS, gateway);
		}
	}

	private void scheduleScrape(long atMicros, Gateway gateway) {
		queuedScrapes++;
		schedule(atMicros, () -> scrape(gateway));
	}

	private void startArrivals() {
		Arrival arrival = workload.arrival();
		boolean closedLoop = arrival.type() == Arrival.Type.CLOSED_LOOP;
		if (workload.shape() instanceof Workload.Captured captured) {
			scheduleCapturedArrival(captured.trace());
		}
		else if (requests.conversational()) {
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
		return exponentialGapMicros(arrivalGaps, perSecond);
	}

	private static long exponentialGapMicros(SplittableRandom gaps, double perSecond) {
		return Math.round(-Math.log(1 - gaps.nextDouble()) / perSecond * 1e6);
	}

	/**
	 * The arrival times, virtual µs, of the requests of a workload of independent requests under Poisson arrivals
	 * at {@code ratePerSecond}: the times a replay sends them at, for a driver that sends them over real HTTP.
	 */
	public static long[] poissonArrivalMicros(Workload workload, double ratePerSecond) {
		SplittableRandom gaps = new SplittableRandom(workload.seed() * 31 + ARRIVALS);
		long[] arrivals = new long[workload.totalRequests()];
		long at = 0;
		for (int i = 0; i < arrivals.length; i++) {
			at += exponentialGapMicros(gaps, ratePerSecond);
			arrivals[i] = at;
		}
		return arrivals;
	}

	/** Poisson arrivals of independent requests. */
	private void scheduleNextArrival(long afterMicros) {
		if (!reserve()) {
			return;
		}
		long at = afterMicros + exponentialGapMicros(ratePerSecond);
		schedule(at, () -> {
			send(requests.request(issued), requests.tenant(issued), FollowUp.NONE);
			scheduleNextArrival(at);
		});
	}

	/**
	 * The next captured request that arrives at its own time (not a conversation's follow-up), at that time; the next
	 * is queued when it arrives, so the queue stays short.
	 */
	private void scheduleCapturedArrival(Trace trace) {
		int arriving = trace.nextArrival(nextCapturedArrival);
		if (arriving < 0) {
			return;
		}
		nextCapturedArrival = arriving + 1;
		schedule(trace.arrivalMicros(arriving), () -> {
			sendCaptured(trace, arriving);
			scheduleCapturedArrival(trace);
		});
	}

	/**
	 * Sends captured request {@code index} now; when it ends, its conversation's next turn, if it has one, is queued
	 * its think time later.
	 */
	private void sendCaptured(Trace trace, int index) {
		reserve();
		RequestPrefetcher.Prepared prepared = prefetcher.get(index);
		int next = trace.follower(index);
		FollowUp followUp = (next < 0) ? FollowUp.NONE
				: (endMicros) -> schedule(endMicros + trace.thinkMicros(next), () -> sendCaptured(trace, next));
		send(prepared.request(), prepared.promptText(), prepared.engineTokens(), trace.tenant(index), followUp);
	}

	/** A closed-loop client's next independent request, at {@code atMicros}. */
	private void sendNextOnClient(long atMicros) {
		if (reserve()) {
			schedule(atMicros, () -> send(requests.request(issued), requests.tenant(issued), this::sendNextOnClient));
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
		int id = nextConversation++;
		Conversation conversation = requests.conversation(id);
		Tenant tenant = requests.tenant(id);
		schedule(atMicros, () -> sendTurn(conversation, tenant, 0));
		return true;
	}

	private Workload.MultiTurn multiTurnShape() {
		Workload.Shape shape = workload.shape();
		return (Workload.MultiTurn) ((shape instanceof Workload.LoraMix mix) ? mix.base() : shape);
	}

	private void sendTurn(Conversation conversation, Tenant tenant, int turn) {
		send(conversation.turn(turn), tenant, (endMicros) -> {
			if (turn + 1 < conversation.turns()) {
				if (reserve()) {
					schedule(endMicros + conversation.thinkMicrosAfter(turn),
							() -> sendTurn(conversation, tenant, turn + 1));
				}
			}
			else if (workload.arrival().type() == Arrival.Type.CLOSED_LOOP) {
				startConversation(endMicros);
			}
		});
	}

	/**
	 * What to do when a request ends, at the instant its client goes on: when it completes or fails, or its
	 * {@code Retry-After} after flow control turned it away.
	 */
	@FunctionalInterface
	private interface FollowUp {

		FollowUp NONE = (endMicros) -> {
		};

		void requestEnded(long endMicros);
	}

	/**
	 * One request arrives at its gateway at the current instant and enters flow control, which dispatches it at once,
	 * holds it while the pool is saturated, or turns it away.
	 */
	private void send(BenchRequest benchRequest, Tenant tenant, FollowUp followUp) {
		send(benchRequest, benchRequest.gatewayPromptText(), null, tenant, followUp);
	}

	/**
	 * @param promptText the request's {@link BenchRequest#gatewayPromptText()}
	 * @param engineTokens its {@link BenchRequest#engineTokens()}, or null to compute them when it is routed
	 */
	private void send(BenchRequest benchRequest, String promptText, int[] engineTokens, Tenant tenant,
			FollowUp followUp) {
		long now = clock.nowMicros();
		long index = issued++;
		if (index == workload.warmup()) {
			windowStartCounters = engineCounters();
		}
		RequestRecord record = new RequestRecord(index, now);
		if (index >= workload.warmup()) {
			measured.add(record);
		}
		String adapter = benchRequest.adapter();
		Caller caller = (tenant != null) ? new Caller(tenant.name(), tenant.name(), tenant.priority(), tenant.weight())
				: Caller.anonymous();
		record.tenant = (tenant != null) ? tenant.name() : null;
		String model = (adapter != null) ? adapter : MODEL;
		// the request as the gateway's parser would see it: a stream of the model, asking for its output tokens
		ParsedRequest parsed = new ParsedRequest(model, -1, -1, true, benchRequest.outputTokens(), promptText,
				InferenceRequest.estimateTokens(promptText.length()), null, StreamOptions.ABSENT);
		Gateway gateway = gateways.get((int) (index % gateways.size()));
		InferenceEngine engine = gateway.engine;
		if (!(engine.resolve(model, parsed, InferenceApi.Work.GENERATION, caller,
				benchRequest.sessionKey()) instanceof Resolution.Routed routed)) {
			turnedAway(record, followUp, false, now);
			return;
		}
		InferenceRequest request = routed.request();
		// the memory store of limits answers at once; a replay never configures the shared one
		LimitDecision limits = engine.limit(caller, request).toCompletableFuture().join();
		if (limits != null && !limits.admitted()) {
			turnedAway(record, followUp, true, now);
			return;
		}
		Arrived arrived = new Arrived(record, benchRequest, engineTokens, request, gateway, followUp, limits);
		// the prompt's characters stand for the body's bytes: only the queue's byte bounds read them
		FlowTicket ticket = engine.enqueue(request, caller, promptText.length(), null);
		CompletableFuture<FlowDecision> decision = ticket.decision();
		if (decision.isDone()) {
			decided(arrived, ticket, decision.join());
			return;
		}
		gateway.scheduleSweep();
		// completed by a later sweep, or by a request ending inside an engine's step: act on it as an event of its own
		decision.thenAccept((decided) -> schedule(clock.nowMicros(), () -> decided(arrived, ticket, decided)));
	}

	/** A request that has arrived, waiting for flow control's decision; {@code limits} is null with no limit. */
	private record Arrived(RequestRecord record, BenchRequest benchRequest, int[] engineTokens,
			InferenceRequest request, Gateway gateway, FollowUp followUp, LimitDecision limits) {
	}

	/** A request refused before flow control: by its limits (a 429), or for a model nothing serves. */
	private void turnedAway(RequestRecord record, FollowUp followUp, boolean limited, long now) {
		if (limited) {
			record.rejected = true;
		}
		else {
			record.failed = true;
			failed++;
		}
		ended++;
		progress.requestEnded();
		followUp.requestEnded(now);
	}

	private void decided(Arrived arrived, FlowTicket ticket, FlowDecision decision) {
		if (decision.dispatched()) {
			route(arrived, ticket);
			return;
		}
		settle(arrived.limits(), 0, 0);
		long now = clock.nowMicros();
		RequestRecord record = arrived.record();
		if (decision.outcome().status() == 429) {
			record.rejected = true;
		}
		else {
			record.failed = true;
			failed++;
		}
		ended++;
		progress.requestEnded();
		arrived.followUp().requestEnded(now + decision.retryAfterMillis() * 1000);
	}

	/** Routes and submits one request that flow control dispatched, at the current instant. */
	private void route(Arrived arrived, FlowTicket ticket) {
		long now = clock.nowMicros();
		RequestRecord record = arrived.record();
		record.dispatchMicros = now;
		BenchRequest benchRequest = arrived.benchRequest();
		InferenceRequest request = arrived.request();
		int[] promptTokens = (arrived.engineTokens() != null) ? arrived.engineTokens() : benchRequest.engineTokens();
		String adapter = benchRequest.adapter();
		routedPromptTokens = promptTokens;
		routedAdapter = adapter;
		long startNanos = System.nanoTime();
		Dispatch dispatch = arrived.gateway().engine.dispatch(request);
		Endpoint chosen = arrived.gateway().engine.pick(dispatch);
		record.schedulerNanos = System.nanoTime() - startNanos;
		routedPromptTokens = null;
		Pod pod = (chosen != null) ? podsByEndpoint.get(chosen) : null;
		if (pod == null
				|| pod.engine.rejectionReason(promptTokens.length, benchRequest.outputTokens(), adapter) != null) {
			dispatch.finish();
			ticket.release(-1);
			settle(arrived.limits(), 0, 0);
			record.failed = true;
			failed++;
			ended++;
			progress.requestEnded();
			arrived.followUp().requestEnded(now);
			return;
		}
		record.pod = pod.index;
		String session = benchRequest.sessionKey();
		if (session != null) {
			Integer previous = lastPodOfSession.put(session, pod.index);
			record.sameSessionPod = (previous == null) ? null : previous == pod.index;
		}
		// A pod can be 1 µs ahead only after zero-time steps started at this instant.
		// the priority the gateway would write into the body it forwards; none to a FIFO engine
		Integer enginePriority = arrived.gateway().engine.enginePriority(ticket);
		pod.engine.submit(Math.max(now, pod.engine.nowMicros()), new EngineRequest(promptTokens, adapter,
				benchRequest.outputTokens(), (enginePriority != null) ? enginePriority : 0,
				new Sent(record, dispatch, ticket, arrived.limits(), arrived.followUp())));
	}

	private record Sent(RequestRecord record, Dispatch dispatch, FlowTicket ticket, LimitDecision limits,
			FollowUp followUp) {
	}

	/** Settles a request's limits with the tokens it used, as the gateway does when its response ends. */
	private static void settle(LimitDecision limits, long promptTokens, long outputTokens) {
		if (limits != null) {
			limits.complete(new TokenUsage(promptTokens, outputTokens, true));
		}
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
		return new RunResult(policy.name(),
				workload.arrival().type() != Arrival.Type.POISSON ? Double.NaN : ratePerSecond,
				List.copyOf(measured), issued, completed, failed, end[0] - windowStartCounters[0],
				end[1] - windowStartCounters[1], end[2] - windowStartCounters[2], perPod, endMicros, prefixIndexBytes,
				flowControlOn, Arrays.copyOf(completionMicros, (int) completed));
	}

	private record Event(long timeMicros, long sequence, Runnable action) {
	}

	/**
	 * One gateway replica: its own routing context and registry, so its own endpoints (in-flight counts, snapshots),
	 * prefix index, sessions and picker state; and, with dispatch sharing, its end of the in-process channel.
	 */
	private final class Gateway implements DispatchChannel {

		final int index;

		final RoutingContext context;

		final InferenceEngine engine;

		final List<Endpoint> endpoints;

		final FlowController flowControl;

		private final long sweepIntervalMicros;

		private boolean sweepQueued;

		private final List<Consumer<byte[]>> receivers = new ArrayList<>(1);

		Gateway(int index, List<URI> uris) {
			this.index = index;
			PoolProperties.Pool pool = PoolProperties.Pool.of(uris, policy.profile());
			if (workload.cluster().priorityScheduling()) {
				// the pods schedule by priority as vLLM does: the gateway tells them each request's
				pool = pool.withEnginePriority(EnginePriority.VLLM);
			}
			EndpointRegistry registry = new EndpointRegistry(Map.of(POOL, pool));
			SplittableRandom pickerRandom = new SplittableRandom(
					workload.seed() * 31 + PICKER + REPLICA_SEED_STRIDE * index);
			this.context = RoutingContext.start(clock, registry, new EngineCacheOracle(), pickerRandom,
					workload.flowControl(), hostProperties);
			this.engine = context.engine();
			this.flowControl = engine.flowControl();
			this.sweepIntervalMicros = flowControl.properties().sweepInterval().toNanos() / 1000;
			registry.sync(POOL, uris);
			this.endpoints = registry.pool(POOL).endpoints();
			for (int i = 0; i < endpoints.size(); i++) {
				podsByEndpoint.put(endpoints.get(i), pods.get(i));
			}
			EngineBlockIndex engineBlocks = context.engineBlockIndexReadBy(policy.profile());
			if (engineBlocks != null) {
				engineBlockIndexes.add(engineBlocks);
			}
			if (policy.dispatchSharing()) {
				new DispatchSharing(context.prefixIndex(), this, registry).withSessionsOf(context.schedulingProfiles())
					.start();
			}
		}

		/**
		 * Queues this replica's next flow-control sweep, at the next tick of its {@code sweep-interval} timer (ticks
		 * at whole multiples of the interval), unless one is queued. A sweep queues the next while requests wait.
		 */
		void scheduleSweep() {
			if (sweepQueued) {
				return;
			}
			sweepQueued = true;
			schedule((clock.nowMicros() / sweepIntervalMicros + 1) * sweepIntervalMicros, () -> {
				sweepQueued = false;
				flowControl.sweep();
				PoolFlowReport queues = flowControl.report(POOL);
				if (queues != null && queues.queuedRequests() > 0) {
					scheduleSweep();
				}
			});
		}

		/** Delivers to every other replica, {@link #sharingDelayMicros} from now. */
		@Override
		public void publish(byte[] message) {
			long at = clock.nowMicros() + sharingDelayMicros;
			for (Gateway peer : gateways) {
				if (peer != this) {
					for (Consumer<byte[]> receiver : peer.receivers) {
						schedule(at, () -> receiver.accept(message));
					}
				}
			}
		}

		@Override
		public void subscribe(Consumer<byte[]> receiver) {
			receivers.add(receiver);
		}

		@Override
		public void close() {
			context.close();
		}
	}

	/** One simulated model server: its engine, which every gateway replica knows by an endpoint of its own. */
	private final class Pod implements EngineEventListener {

		final int index;

		final VirtualTimeEngine engine;

		Pod(int index, EngineConfig config, KvEventSink kvEvents) {
			this.index = index;
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
			sent.record.promptTokens = request.numPromptTokens();
			sent.record.cachedPromptTokens = request.cachedPromptTokens();
			sent.record.preemptions = request.numPreemptions();
			sent.dispatch.finish();
			// the tokens the response reports, as the gateway charges them to the tenant
			sent.ticket.release(request.numPromptTokens() + request.numOutputTokens());
			settle(sent.limits, request.numPromptTokens(), request.numOutputTokens());
			if (completed == completionMicros.length) {
				completionMicros = Arrays.copyOf(completionMicros, completionMicros.length * 2);
			}
			completionMicros[(int) completed] = timeMicros;
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
