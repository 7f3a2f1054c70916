package io.infergate.bench.picker;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.google.protobuf.ByteString;
import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProtocolConfiguration;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;

/**
 * {@code picker-load}: plays Envoy's ext_proc filter against an Endpoint Picker as fast as it answers, and times its
 * decisions. Each of {@code --concurrency} virtual clients runs one request at a time: it opens a stream, sends the
 * request headers and a short chat body (one chunk, {@code FULL_DUPLEX_STREAMED}), waits for the picker's route
 * (headers, body re-emitted), then feeds back a model server's answer (200, a JSON body with {@code usage}) and
 * closes the stream once the picker has passed it on. No model server is called: what is measured is the picker.
 * <p>
 * With {@code --rate R} the clients together start at most R requests a second (paced, as a proxy at part load
 * would); without, as many as the picker takes. Prints, after {@code --warmup} seconds that are not counted, the
 * requests completed in {@code --duration} seconds, requests/s, and the decision time (last body byte sent to the
 * route's last body chunk received) and the whole exchange's time, p50 and p99, in milliseconds; immediate
 * responses by status and failed streams are counted apart.
 * <p>
 * {@code --target HOST:PORT --concurrency N --duration SECONDS [--warmup SECONDS] [--rate R] [--model NAME]
 * [--path PATH]}
 */
public final class PickerLoadCommand {

	public static final String NAME = "picker-load";

	private final PrintStream out;

	private String target;

	private int concurrency = 32;

	private int durationSeconds = 15;

	private int warmupSeconds = 5;

	private int rate;

	private String model = "llama";

	private String path = "/v1/chat/completions";

	public PickerLoadCommand(PrintStream out) {
		this.out = out;
	}

	public int run(String[] args) throws Exception {
		try {
			parse(args);
		}
		catch (IllegalArgumentException ex) {
			out.println(ex.getMessage());
			out.println("usage: picker-load --target HOST:PORT --concurrency N --duration SECONDS [--warmup SECONDS]"
					+ " [--rate R] [--model NAME] [--path PATH]");
			return 2;
		}
		String[] hostPort = target.split(":");
		ManagedChannel channel = NettyChannelBuilder.forAddress(hostPort[0], Integer.parseInt(hostPort[1]))
			.usePlaintext()
			// callbacks on the transport's event loop: the client's own hand-offs are not what is measured
			.directExecutor()
			.build();
		try {
			Run warm = new Run(ExternalProcessorGrpc.newStub(channel), warmupSeconds);
			warm.await();
			Run measured = new Run(ExternalProcessorGrpc.newStub(channel), durationSeconds);
			measured.await();
			measured.report();
			return 0;
		}
		finally {
			channel.shutdownNow();
		}
	}

	private void parse(String[] args) {
		for (int i = 0; i < args.length; i++) {
			String value = (i + 1 < args.length) ? args[i + 1] : null;
			switch (args[i]) {
				case "--target" -> target = value;
				case "--concurrency" -> concurrency = Integer.parseInt(value);
				case "--duration" -> durationSeconds = Integer.parseInt(value);
				case "--warmup" -> warmupSeconds = Integer.parseInt(value);
				case "--rate" -> rate = Integer.parseInt(value);
				case "--model" -> model = value;
				case "--path" -> path = value;
				default -> throw new IllegalArgumentException("unknown option " + args[i]);
			}
			i++;
		}
		if (target == null || !target.contains(":")) {
			throw new IllegalArgumentException("--target HOST:PORT is required");
		}
		if (concurrency < 1 || durationSeconds < 1 || warmupSeconds < 0 || rate < 0) {
			throw new IllegalArgumentException("--concurrency and --duration must be at least 1");
		}
	}

	/** {@code concurrency} clients for {@code seconds}, each starting its next request when the last one ends. */
	private final class Run {

		private final ExternalProcessorGrpc.ExternalProcessorStub stub;

		private final long endNanos;

		private final long startNanos = System.nanoTime();

		private final CountDownLatch clientsDone = new CountDownLatch(concurrency);

		private final long[][] decisionNanos = new long[concurrency][];

		private final long[][] exchangeNanos = new long[concurrency][];

		private final int[] counts = new int[concurrency];

		private final Map<Integer, AtomicLong> immediate = new ConcurrentHashMap<>();

		private final AtomicLong failures = new AtomicLong();

		private final AtomicLong started = new AtomicLong();

		private final ScheduledExecutorService pacing = Executors.newSingleThreadScheduledExecutor();

		private final byte[] body = ("{\"model\":\"" + model + "\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\","
				+ "\"content\":\"Where should this request go? Pick the best replica.\"}]}")
			.getBytes(StandardCharsets.UTF_8);

		private final byte[] answer = ("{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
				+ "\"message\":{\"role\":\"assistant\",\"content\":\"Here.\"},\"finish_reason\":\"stop\"}],"
				+ "\"usage\":{\"prompt_tokens\":25,\"completion_tokens\":2,\"total_tokens\":27}}")
			.getBytes(StandardCharsets.UTF_8);

		Run(ExternalProcessorGrpc.ExternalProcessorStub stub, int seconds) {
			this.stub = stub;
			this.endNanos = startNanos + TimeUnit.SECONDS.toNanos(seconds);
			for (int client = 0; client < concurrency; client++) {
				decisionNanos[client] = new long[1 << 16];
				exchangeNanos[client] = new long[1 << 16];
				next(client);
			}
		}

		void await() throws InterruptedException {
			clientsDone.await();
			pacing.shutdownNow();
		}

		/** Starts the client's next request, at once or when the pace allows; ends the client past the deadline. */
		private void next(int client) {
			long now = System.nanoTime();
			if (now >= endNanos) {
				clientsDone.countDown();
				return;
			}
			if (rate <= 0) {
				new Exchange(client).start();
				return;
			}
			long due = startNanos + started.getAndIncrement() * 1_000_000_000L / rate;
			if (due <= now) {
				new Exchange(client).start();
			}
			else {
				pacing.schedule(() -> new Exchange(client).start(), due - now, TimeUnit.NANOSECONDS);
			}
		}

		private synchronized void record(int client, long decision, long exchange) {
			int n = counts[client];
			if (n == decisionNanos[client].length) {
				decisionNanos[client] = Arrays.copyOf(decisionNanos[client], 2 * n);
				exchangeNanos[client] = Arrays.copyOf(exchangeNanos[client], 2 * n);
			}
			decisionNanos[client][n] = decision;
			exchangeNanos[client][n] = exchange;
			counts[client] = n + 1;
		}

		void report() {
			int total = Arrays.stream(counts).sum();
			long[] decisions = new long[total];
			long[] exchanges = new long[total];
			int at = 0;
			for (int client = 0; client < concurrency; client++) {
				System.arraycopy(decisionNanos[client], 0, decisions, at, counts[client]);
				System.arraycopy(exchangeNanos[client], 0, exchanges, at, counts[client]);
				at += counts[client];
			}
			Arrays.sort(decisions);
			Arrays.sort(exchanges);
			double seconds = durationSeconds;
			Map<String, Object> line = new LinkedHashMap<>();
			line.put("requests", total);
			line.put("requests_per_s", String.format("%.1f", total / seconds));
			line.put("decision_p50_ms", millis(decisions, 0.50));
			line.put("decision_p99_ms", millis(decisions, 0.99));
			line.put("exchange_p50_ms", millis(exchanges, 0.50));
			line.put("exchange_p99_ms", millis(exchanges, 0.99));
			line.put("immediate", immediate.isEmpty() ? "none" : immediate.toString());
			line.put("failed", failures.get());
			StringBuilder printed = new StringBuilder();
			line.forEach((key, value) -> printed.append((printed.length() > 0) ? " " : "").append(key).append('=')
				.append(value));
			out.println(printed);
		}

		private static String millis(long[] sorted, double quantile) {
			if (sorted.length == 0) {
				return "-";
			}
			return String.format("%.3f", sorted[(int) Math.min(sorted.length - 1, quantile * sorted.length)] / 1e6);
		}

		/** One request through the picker, as Envoy's filter carries it. */
		private final class Exchange implements StreamObserver<ProcessingResponse> {

			private final int client;

			private StreamObserver<ProcessingRequest> requests;

			private long sentNanos;

			private long routedNanos;

			private int received;

			private boolean done;

			Exchange(int client) {
				this.client = client;
			}

			void start() {
				sentNanos = System.nanoTime();
				requests = stub.process(this);
				requests.onNext(ProcessingRequest.newBuilder()
					.setProtocolConfig(ProtocolConfiguration.newBuilder()
						.setRequestBodyMode(ProcessingMode.BodySendMode.FULL_DUPLEX_STREAMED)
						.setResponseBodyMode(ProcessingMode.BodySendMode.FULL_DUPLEX_STREAMED))
					.setRequestHeaders(HttpHeaders.newBuilder()
						.setHeaders(headers(":method", "POST", ":path", path, ":authority", "bench", ":scheme", "http",
								"content-type", "application/json", "content-length", Integer.toString(body.length))))
					.build());
				requests.onNext(ProcessingRequest.newBuilder()
					.setRequestBody(HttpBody.newBuilder().setBody(ByteString.copyFrom(body)).setEndOfStream(true))
					.build());
			}

			@Override
			public synchronized void onNext(ProcessingResponse response) {
				received++;
				if (response.hasImmediateResponse()) {
					immediate.computeIfAbsent(response.getImmediateResponse().getStatus().getCodeValue(),
							(status) -> new AtomicLong())
						.incrementAndGet();
					return;
				}
				if (response.hasRequestBody() && response.getRequestBody()
					.getResponse()
					.getBodyMutation()
					.getStreamedResponse()
					.getEndOfStream()) {
					routedNanos = System.nanoTime();
					requests.onNext(ProcessingRequest.newBuilder()
						.setResponseHeaders(HttpHeaders.newBuilder()
							.setHeaders(headers(":status", "200", "content-type", "application/json")))
						.build());
					requests.onNext(ProcessingRequest.newBuilder()
						.setResponseBody(
								HttpBody.newBuilder().setBody(ByteString.copyFrom(answer)).setEndOfStream(true))
						.build());
				}
				else if (response.hasResponseBody()
						&& response.getResponseBody().getResponse().getBodyMutation().getStreamedResponse()
							.getEndOfStream()) {
					record(client, routedNanos - sentNanos, System.nanoTime() - sentNanos);
					requests.onCompleted();
				}
			}

			@Override
			public void onError(Throwable error) {
				failures.incrementAndGet();
				end();
			}

			@Override
			public void onCompleted() {
				end();
			}

			private void end() {
				synchronized (this) {
					if (done) {
						return;
					}
					done = true;
				}
				next(client);
			}
		}
	}

	private static HeaderMap headers(String... namesAndValues) {
		HeaderMap.Builder map = HeaderMap.newBuilder();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			map.addHeaders(HeaderValue.newBuilder()
				.setKey(namesAndValues[i])
				.setRawValue(ByteString.copyFromUtf8(namesAndValues[i + 1])));
		}
		return map.build();
	}
}
