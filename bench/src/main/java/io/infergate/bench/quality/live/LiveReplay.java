package io.infergate.bench.quality.live;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.locks.LockSupport;

import io.infergate.bench.quality.replay.Replay;
import io.infergate.bench.quality.replay.RequestRecord;
import io.infergate.bench.quality.replay.RunResult;
import io.infergate.bench.quality.trace.Trace;
import io.infergate.bench.quality.workload.BenchRequest;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadRequests;
import io.infergate.routing.metrics.PrometheusSample;
import io.infergate.routing.metrics.PrometheusSamples;
import io.infergate.routing.metrics.PrometheusTextParser;
import io.infergate.simtokenizer.StandInChatTemplate;

/**
 * Replays a workload in wall-clock time through running gateways, request i (in issue order) to gateway i mod N, each
 * as a streaming chat completion, the way the virtual-time {@link Replay} issues them:
 * <ul>
 * <li>independent requests: request i at its Poisson arrival time divided by the time scale;</li>
 * <li>conversations (a {@code multi-turn} shape, alone or in a {@code lora-mix}): a new conversation starts at each
 * Poisson time at rate / turns ({@link Replay#poissonArrivalMicros} at that rate, the gaps Replay draws) and sends its
 * first turn; turn k+1 goes out its think time after turn k's response ended, completed or failed, with the
 * conversation's {@code x-session-id}. Starts stop once the workload's requests are spoken for or its conversations
 * run out. One scheduler thread sends every turn, so any number of conversations can wait at once.</li>
 * </ul>
 * Times are measured on this side of the HTTP connection and reported in model time (wall time × time scale), so
 * they compare with a virtual-time replay of the same workload:
 * <ul>
 * <li>TTFT: from just before the request is handed to the HTTP client to the first byte of the response body (the
 * simulator writes nothing before the first token);</li>
 * <li>E2E: to the end of the body;</li>
 * <li>the pod: the gateway's {@code x-infergate-endpoint} header;</li>
 * <li>prefix hit rate and preemptions: the pods' own counters ({@code vllm:prefix_cache_queries_total},
 * {@code vllm:prefix_cache_hits_total}, {@code vllm:num_preemptions_total}), read from their {@code /metrics} just
 * before the first measured request is sent and after the last one ended.</li>
 * </ul>
 * A request that gets no 200, or whose stream breaks, counts as failed. One instance replays once.
 */
final class LiveReplay {

	private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(5);

	private final Workload workload;

	private final String policy;

	private final double ratePerSecond;

	private final double timeScale;

	private final List<URI> gateways;

	private final List<URI> pods;

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	/** Every request sent, in issue order; written by one thread at a time. */
	private final List<Issued> issued = new ArrayList<>();

	private long startNanos;

	/** The pods' counters just before the first measured request; null until it is sent. */
	private PodCounters atWindowStart;

	LiveReplay(Workload workload, String policy, double ratePerSecond, double timeScale, List<URI> gateways,
			List<URI> pods) {
		this.workload = workload;
		this.policy = policy;
		this.ratePerSecond = ratePerSecond;
		this.timeScale = timeScale;
		this.gateways = gateways;
		this.pods = pods;
	}

	/**
	 * The replay's measured requests and pod counters; over every request of the run, warm-up included, the mean
	 * TTFT the client saw and the mean TTFT the engines measured themselves (from receiving the request to its first
	 * token), both in model ms: their difference is what the gateway, HTTP and the client add. For conversations, the
	 * share of measured later turns that the pod of their conversation's previous turn served (NaN without
	 * conversations) and every turn sent, in issue order (empty without conversations).
	 */
	record Result(RunResult run, double clientTtftMeanMs, double engineTtftMeanMs, double sessionTurnsKept,
			List<Turn> turns) {
	}

	/** Turn {@code turn} of conversation {@code conversation}, and what became of it. */
	record Turn(int conversation, int turn, RequestRecord record) {
	}

	/** A request sent; {@code conversation} and {@code turn} are -1 for an independent request. */
	private record Issued(int conversation, int turn, CompletableFuture<RequestRecord> record) {
	}

	Result run() throws IOException, InterruptedException {
		WorkloadRequests requests = new WorkloadRequests(workload);
		PodCounters atStart = PodCounters.read(client, pods);
		startNanos = System.nanoTime();
		if (workload.shape() instanceof Workload.Captured captured) {
			new CapturedTraffic(captured.trace()).run();
		}
		else if (requests.conversational()) {
			new Conversations(requests).run();
		}
		else {
			sendIndependent(requests);
		}
		List<RequestRecord> measured = new ArrayList<>();
		List<Turn> turns = new ArrayList<>();
		long completed = 0;
		long failed = 0;
		long endMicros = 0;
		double ttftSumMs = 0;
		for (Issued sent : issued) {
			RequestRecord record = sent.record().join();
			if (record.completed()) {
				completed++;
				endMicros = Math.max(endMicros, record.finishMicros());
				ttftSumMs += (record.firstTokenMicros() - record.arrivalMicros()) / 1000.0;
			}
			else {
				failed++;
			}
			if (record.index() >= workload.warmup()) {
				measured.add(record);
			}
			if (sent.conversation() >= 0) {
				turns.add(new Turn(sent.conversation(), sent.turn(), record));
			}
		}
		PodCounters atEnd = PodCounters.read(client, pods);
		PodCounters windowStart = (atWindowStart != null) ? atWindowStart : atEnd;
		long[] perPod = new long[pods.size()];
		for (RequestRecord record : measured) {
			if (record.pod() >= 0) {
				perPod[record.pod()]++;
			}
		}
		RunResult run = new RunResult(policy, ratePerSecond, measured, issued.size(), completed, failed,
				atEnd.queryTokens() - windowStart.queryTokens(), atEnd.hitTokens() - windowStart.hitTokens(),
				atEnd.preemptions() - windowStart.preemptions(), perPod, endMicros, new long[0]);
		double engineCount = atEnd.ttftCount() - atStart.ttftCount();
		return new Result(run, (completed > 0) ? ttftSumMs / completed : Double.NaN,
				(engineCount > 0) ? (atEnd.ttftSumSeconds() - atStart.ttftSumSeconds()) / engineCount * 1000
						: Double.NaN,
				sessionTurnsKept(turns), turns);
	}

	/** Independent requests, request i at its Poisson arrival time ÷ the time scale. */
	private void sendIndependent(WorkloadRequests requests) throws IOException, InterruptedException {
		long[] arrivals = Replay.poissonArrivalMicros(workload, ratePerSecond);
		for (int i = 0; i < arrivals.length; i++) {
			long dueNanos = wallNanos(arrivals[i]);
			for (long wait = dueNanos - System.nanoTime(); wait > 0; wait = dueNanos - System.nanoTime()) {
				LockSupport.parkNanos(wait);
			}
			issue(requests.request(i), -1, -1);
		}
	}

	/**
	 * Sends the next request in issue order to its gateway; before the first measured one, reads the pods' counters.
	 */
	private CompletableFuture<RequestRecord> issue(BenchRequest request, int conversation, int turn)
			throws IOException, InterruptedException {
		int index = issued.size();
		if (index == workload.warmup()) {
			atWindowStart = PodCounters.read(client, pods);
		}
		CompletableFuture<RequestRecord> record = send(index, request, gateways.get(index % gateways.size()));
		issued.add(new Issued(conversation, turn, record));
		return record;
	}

	/**
	 * Of the measured turns after a conversation's first that reached a pod, the share served by the pod of the
	 * conversation's previous turn that reached one (as {@link RequestRecord#sameSessionPod()} in a replay).
	 */
	private double sessionTurnsKept(List<Turn> turns) {
		Map<Integer, Integer> lastPod = new HashMap<>();
		long laterTurns = 0;
		long keptTurns = 0;
		for (Turn turn : turns) {
			RequestRecord record = turn.record();
			if (record.pod() < 0) {
				continue;
			}
			Integer previous = lastPod.put(turn.conversation(), record.pod());
			if (previous != null && record.index() >= workload.warmup()) {
				laterTurns++;
				keptTurns += (previous == record.pod()) ? 1 : 0;
			}
		}
		return (laterTurns > 0) ? (double) keptTurns / laterTurns : Double.NaN;
	}

	/**
	 * The conversations of a multi-turn workload, on one scheduler thread: it starts each conversation, sends every
	 * turn and does all the counting, so the HTTP client's threads only hand it the end of each response.
	 */
	private final class Conversations {

		private final WorkloadRequests requests;

		private final int conversationCount;

		/** Model µs at which conversations start, from the start of the run. */
		private final long[] startMicros;

		private final LiveScheduler scheduler = new LiveScheduler("live-conversations");

		/** Requests spoken for: sent, or a next turn scheduled. */
		private int reserved;

		private int nextStart;

		private int nextConversation;

		/** Conversations started whose last turn has not ended. */
		private int active;

		private boolean starting = true;

		Conversations(WorkloadRequests requests) {
			this.requests = requests;
			Workload.Shape shape = workload.shape();
			Workload.MultiTurn multiTurn = (Workload.MultiTurn) ((shape instanceof Workload.LoraMix mix) ? mix.base()
					: shape);
			this.conversationCount = multiTurn.conversations();
			this.startMicros = Replay.poissonArrivalMicros(workload, ratePerSecond / multiTurn.turns());
		}

		void run() throws IOException, InterruptedException {
			scheduleNextStart();
			scheduler.await();
		}

		private void scheduleNextStart() {
			if (nextStart >= startMicros.length) {
				starting = false;
				return;
			}
			at(wallNanos(startMicros[nextStart++]), () -> {
				if (reserved < workload.totalRequests() && nextConversation < conversationCount) {
					reserved++;
					active++;
					int id = nextConversation++;
					sendTurn(id, requests.conversation(id), 0);
					scheduleNextStart();
				}
				else {
					starting = false;
					endIfIdle();
				}
			});
		}

		private void sendTurn(int id, WorkloadRequests.Conversation conversation, int turn) {
			try {
				issue(conversation.turn(turn), id, turn).whenComplete((record, failure) -> {
					long endedNanos = System.nanoTime();
					at(endedNanos, () -> turnEnded(id, conversation, turn, endedNanos));
				});
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

		private void turnEnded(int id, WorkloadRequests.Conversation conversation, int turn, long endedNanos) {
			if (turn + 1 < conversation.turns() && reserved < workload.totalRequests()) {
				reserved++;
				long thinkNanos = Math.round(conversation.thinkMicrosAfter(turn) * 1000 / timeScale);
				at(endedNanos + thinkNanos, () -> sendTurn(id, conversation, turn + 1));
			}
			else {
				active--;
				endIfIdle();
			}
		}

		private void endIfIdle() {
			if (!starting && active == 0) {
				scheduler.finish();
			}
		}

		private void at(long dueNanos, Runnable action) {
			scheduler.at(dueNanos, action);
		}
	}

	/**
	 * The requests of a capture: each that arrives at its own time is sent at its arrival ÷ the time scale; a
	 * conversation's next turn is sent its think time ÷ the time scale after the previous turn's response ended
	 * ({@link Trace}).
	 */
	private final class CapturedTraffic {

		private final Trace trace;

		private final LiveScheduler scheduler = new LiveScheduler("live-capture");

		private int nextArrival;

		/** Requests sent whose response has not ended, plus conversations' next turns waiting to be sent. */
		private int pending;

		private boolean arriving = true;

		CapturedTraffic(Trace trace) {
			this.trace = trace;
		}

		void run() throws IOException, InterruptedException {
			scheduler.at(System.nanoTime(), this::scheduleNextArrival);
			scheduler.await();
		}

		private void scheduleNextArrival() {
			int arrival = trace.nextArrival(nextArrival);
			if (arrival < 0) {
				arriving = false;
				endIfIdle();
				return;
			}
			nextArrival = arrival + 1;
			pending++;
			scheduler.at(wallNanos(trace.arrivalMicros(arrival)), () -> {
				send(arrival);
				scheduleNextArrival();
			});
		}

		private void send(int index) {
			try {
				issue(trace.request(index), -1, -1).whenComplete((record, failure) -> {
					long endedNanos = System.nanoTime();
					scheduler.at(endedNanos, () -> ended(index, endedNanos));
				});
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

		private void ended(int index, long endedNanos) {
			int next = trace.follower(index);
			if (next >= 0) {
				pending++;
				scheduler.at(endedNanos + Math.round(trace.thinkMicros(next) * 1000 / timeScale), () -> send(next));
			}
			pending--;
			endIfIdle();
		}

		private void endIfIdle() {
			if (!arriving && pending == 0) {
				scheduler.finish();
			}
		}
	}

	/** Model µs from the start of the run as a {@link System#nanoTime()} instant. */
	private long wallNanos(long modelMicros) {
		return startNanos + Math.round(modelMicros * 1000 / timeScale);
	}

	private CompletableFuture<RequestRecord> send(int index, BenchRequest request, URI gateway) {
		String model = (request.adapter() != null) ? request.adapter() : Replay.MODEL;
		HttpRequest.Builder http = HttpRequest.newBuilder(gateway.resolve("/v1/chat/completions"))
			.timeout(REQUEST_TIMEOUT)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body(model, request)));
		if (request.sessionKey() != null) {
			http.header("x-session-id", request.sessionKey());
		}
		long sentNanos = System.nanoTime();
		long arrivalMicros = modelMicros(sentNanos - startNanos);
		StreamTiming timing = new StreamTiming();
		return client.sendAsync(http.build(), (info) -> timing).handle((response, failure) -> {
			if (failure != null || response.statusCode() != 200 || timing.firstByteNanos < 0) {
				return RequestRecord.failed(index, arrivalMicros);
			}
			int pod = podIndex(response.headers().firstValue("x-infergate-endpoint").orElse(""));
			return RequestRecord.completed(index, arrivalMicros, pod,
					arrivalMicros + modelMicros(timing.firstByteNanos - sentNanos),
					arrivalMicros + modelMicros(timing.endNanos - sentNanos), request.outputTokens());
		});
	}

	private long modelMicros(long wallNanos) {
		return Math.round(wallNanos / 1000.0 * timeScale);
	}

	private int podIndex(String endpoint) {
		for (int i = 0; i < pods.size(); i++) {
			URI pod = pods.get(i);
			if (endpoint.equals(pod.getHost() + ":" + pod.getPort())) {
				return i;
			}
		}
		return -1;
	}

	static String body(String model, BenchRequest request) {
		StringBuilder json = new StringBuilder(256);
		json.append("{\"model\":").append(quote(model)).append(",\"stream\":true,\"max_tokens\":")
			.append(request.outputTokens()).append(",\"messages\":[");
		List<StandInChatTemplate.Message> messages = request.messages();
		for (int i = 0; i < messages.size(); i++) {
			StandInChatTemplate.Message message = messages.get(i);
			json.append(i == 0 ? "" : ",").append("{\"role\":").append(quote(message.role())).append(",\"content\":")
				.append(quote(message.content())).append('}');
		}
		return json.append("]}").toString();
	}

	private static String quote(String text) {
		StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '"' || c == '\\') {
				quoted.append('\\').append(c);
			}
			else if (c < 0x20) {
				quoted.append(String.format("\\u%04x", (int) c));
			}
			else {
				quoted.append(c);
			}
		}
		return quoted.append('"').toString();
	}

	/** Times the first and the last byte of a response body, reading it as it comes. */
	private static final class StreamTiming implements HttpResponse.BodySubscriber<Void> {

		private final CompletableFuture<Void> done = new CompletableFuture<>();

		volatile long firstByteNanos = -1;

		volatile long endNanos = -1;

		private Flow.Subscription subscription;

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			this.subscription = subscription;
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public void onNext(List<ByteBuffer> buffers) {
			if (firstByteNanos < 0) {
				for (ByteBuffer buffer : buffers) {
					if (buffer.hasRemaining()) {
						firstByteNanos = System.nanoTime();
						break;
					}
				}
			}
		}

		@Override
		public void onError(Throwable failure) {
			done.completeExceptionally(failure);
		}

		@Override
		public void onComplete() {
			endNanos = System.nanoTime();
			done.complete(null);
		}

		@Override
		public CompletionStage<Void> getBody() {
			return done;
		}
	}

	/**
	 * Σ over the pods of their prefix-cache and preemption counters, and of their own TTFT histogram's sum (engine
	 * seconds, from the engine receiving the request to its first token) and count.
	 */
	record PodCounters(long queryTokens, long hitTokens, long preemptions, double ttftSumSeconds, double ttftCount) {

		private static final String QUERIES = "vllm:prefix_cache_queries_total";

		private static final String HITS = "vllm:prefix_cache_hits_total";

		private static final String PREEMPTIONS = "vllm:num_preemptions_total";

		private static final String TTFT_SUM = "vllm:time_to_first_token_seconds_sum";

		private static final String TTFT_COUNT = "vllm:time_to_first_token_seconds_count";

		private static final PrometheusTextParser PARSER = PrometheusTextParser
			.selecting(List.of(QUERIES, HITS, PREEMPTIONS, TTFT_SUM, TTFT_COUNT));

		static PodCounters read(HttpClient client, List<URI> pods) throws IOException, InterruptedException {
			double[] sums = new double[5];
			for (URI pod : pods) {
				PrometheusSamples samples = PARSER.parse(client
					.send(HttpRequest.newBuilder(pod.resolve("/metrics")).timeout(Duration.ofSeconds(10)).GET().build(),
							HttpResponse.BodyHandlers.ofString())
					.body());
				List<String> names = List.of(QUERIES, HITS, PREEMPTIONS, TTFT_SUM, TTFT_COUNT);
				for (int i = 0; i < names.size(); i++) {
					for (PrometheusSample sample : samples.samples(names.get(i))) {
						sums[i] += sample.value();
					}
				}
			}
			return new PodCounters(Math.round(sums[0]), Math.round(sums[1]), Math.round(sums[2]), sums[3], sums[4]);
		}
	}
}
