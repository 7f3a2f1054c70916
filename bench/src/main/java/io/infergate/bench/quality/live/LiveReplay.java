package io.infergate.bench.quality.live;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.locks.LockSupport;

import io.infergate.bench.quality.replay.Replay;
import io.infergate.bench.quality.replay.RequestRecord;
import io.infergate.bench.quality.replay.RunResult;
import io.infergate.bench.quality.workload.BenchRequest;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.bench.quality.workload.WorkloadRequests;
import io.infergate.routing.metrics.PrometheusSample;
import io.infergate.routing.metrics.PrometheusSamples;
import io.infergate.routing.metrics.PrometheusTextParser;
import io.infergate.sim.engine.ChatTemplate;

/**
 * Replays a workload of independent requests in wall-clock time through running gateways: request i is sent, at its
 * Poisson arrival time divided by the time scale, to gateway i mod N, as a streaming chat completion. Times are
 * measured on this side of the HTTP connection and reported in model time (wall time × time scale), so they compare
 * with a virtual-time replay of the same workload:
 * <ul>
 * <li>TTFT: from just before the request is handed to the HTTP client to the first byte of the response body (the
 * simulator writes nothing before the first token);</li>
 * <li>E2E: to the end of the body;</li>
 * <li>the pod: the gateway's {@code x-infergate-endpoint} header;</li>
 * <li>prefix hit rate and preemptions: the pods' own counters ({@code vllm:prefix_cache_queries_total},
 * {@code vllm:prefix_cache_hits_total}, {@code vllm:num_preemptions_total}), read from their {@code /metrics} just
 * before the first measured request is sent and after the last one ended.</li>
 * </ul>
 * A request that gets no 200, or whose stream breaks, counts as failed.
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
	 * The replay's measured requests and pod counters; and over every request of the run, warm-up included, the mean
	 * TTFT the client saw and the mean TTFT the engines measured themselves (from receiving the request to its first
	 * token), both in model ms: their difference is what the gateway, HTTP and the client add.
	 */
	record Result(RunResult run, double clientTtftMeanMs, double engineTtftMeanMs) {
	}

	Result run() throws IOException, InterruptedException {
		WorkloadRequests requests = new WorkloadRequests(workload);
		long[] arrivals = Replay.poissonArrivalMicros(workload, ratePerSecond);
		List<CompletableFuture<RequestRecord>> sent = new ArrayList<>(arrivals.length);
		PodCounters atStart = PodCounters.read(client, pods);
		PodCounters atWindowStart = null;
		long startNanos = System.nanoTime();
		for (int i = 0; i < arrivals.length; i++) {
			if (i == workload.warmup()) {
				atWindowStart = PodCounters.read(client, pods);
			}
			long dueNanos = startNanos + Math.round(arrivals[i] * 1000 / timeScale);
			for (long wait = dueNanos - System.nanoTime(); wait > 0; wait = dueNanos - System.nanoTime()) {
				LockSupport.parkNanos(wait);
			}
			sent.add(send(i, requests.request(i), gateways.get(i % gateways.size()), startNanos));
		}
		List<RequestRecord> measured = new ArrayList<>();
		long completed = 0;
		long failed = 0;
		long endMicros = 0;
		double ttftSumMs = 0;
		for (int i = 0; i < sent.size(); i++) {
			RequestRecord record = sent.get(i).join();
			if (record.completed()) {
				completed++;
				endMicros = Math.max(endMicros, record.finishMicros());
				ttftSumMs += (record.firstTokenMicros() - record.arrivalMicros()) / 1000.0;
			}
			else {
				failed++;
			}
			if (i >= workload.warmup()) {
				measured.add(record);
			}
		}
		PodCounters atEnd = PodCounters.read(client, pods);
		long[] perPod = new long[pods.size()];
		for (RequestRecord record : measured) {
			if (record.pod() >= 0) {
				perPod[record.pod()]++;
			}
		}
		RunResult run = new RunResult(policy, ratePerSecond, measured, arrivals.length, completed, failed,
				atEnd.queryTokens() - atWindowStart.queryTokens(), atEnd.hitTokens() - atWindowStart.hitTokens(),
				atEnd.preemptions() - atWindowStart.preemptions(), perPod, endMicros, new long[0]);
		double engineCount = atEnd.ttftCount() - atStart.ttftCount();
		return new Result(run, (completed > 0) ? ttftSumMs / completed : Double.NaN,
				(engineCount > 0) ? (atEnd.ttftSumSeconds() - atStart.ttftSumSeconds()) / engineCount * 1000
						: Double.NaN);
	}

	private CompletableFuture<RequestRecord> send(int index, BenchRequest request, URI gateway, long startNanos) {
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
		List<ChatTemplate.Message> messages = request.messages();
		for (int i = 0; i < messages.size(); i++) {
			ChatTemplate.Message message = messages.get(i);
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
