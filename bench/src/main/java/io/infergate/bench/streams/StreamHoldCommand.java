package io.infergate.bench.streams;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code stream-hold}: holds many streamed chat completions open at once against one URL and times every SSE event
 * as it arrives, for what a proxy adds between events and what each open stream costs it. Prints, once every stream
 * has its first event, {@code OPEN <n>} (a script measures the proxy's memory then), and at the end the streams
 * completed, the events, why streams failed, and the gaps between consecutive events of a stream (p50, p90, p99, p99.9, max) and the
 * time to first event (p50, p99), in milliseconds.
 * <p>
 * {@code --url URL[,URL...] --streams N --max-tokens M [--model NAME] [--open-timeout SECONDS]}; with several URLs
 * the streams go to them in turn.
 */
public final class StreamHoldCommand {

	public static final String NAME = "stream-hold";

	private final PrintStream out;

	public StreamHoldCommand(PrintStream out) {
		this.out = out;
	}

	/** One stream's event arrival times, in nanoseconds. */
	private static final class Stream implements Flow.Subscriber<String> {

		final long[] arrivals;

		final long sentAt;

		int events;

		private final CountDownLatch opened;

		Stream(int maxEvents, CountDownLatch opened) {
			this.arrivals = new long[maxEvents];
			this.sentAt = System.nanoTime();
			this.opened = opened;
		}

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public void onNext(String line) {
			if (line.startsWith("data:") && events < arrivals.length) {
				arrivals[events++] = System.nanoTime();
				if (events == 1) {
					opened.countDown();
				}
			}
		}

		@Override
		public void onError(Throwable throwable) {
		}

		@Override
		public void onComplete() {
		}
	}

	public int run(String[] args) throws Exception {
		Map<String, String> options = new LinkedHashMap<>();
		for (int i = 0; i + 1 < args.length; i += 2) {
			if (!args[i].startsWith("--")) {
				throw new IllegalArgumentException("expected an option, was " + args[i]);
			}
			options.put(args[i].substring(2), args[i + 1]);
		}
		// several URLs: the streams go to them in turn
		URI[] urls = Arrays.stream(required(options, "url").split(",")).map(URI::create).toArray(URI[]::new);
		int streams = Integer.parseInt(required(options, "streams"));
		int maxTokens = Integer.parseInt(required(options, "max-tokens"));
		String model = options.getOrDefault("model", "bench-model");
		long openTimeout = Long.parseLong(options.getOrDefault("open-timeout", "120"));
		String body = "{\"model\":\"" + model + "\",\"max_tokens\":" + maxTokens
				+ ",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Count as far as you can.\"}]}";
		HttpClient client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(30))
			.build();
		CountDownLatch opened = new CountDownLatch(streams);
		Stream[] held = new Stream[streams];
		CompletableFuture<?>[] done = new CompletableFuture<?>[streams];
		AtomicInteger failed = new AtomicInteger();
		Map<String, AtomicInteger> failures = new java.util.concurrent.ConcurrentHashMap<>();
		for (int i = 0; i < streams; i++) {
			Stream stream = new Stream(maxTokens + 4, opened);
			held[i] = stream;
			HttpRequest request = HttpRequest.newBuilder(urls[i % urls.length])
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build();
			done[i] = client.sendAsync(request, HttpResponse.BodyHandlers.fromLineSubscriber(stream))
				.handle((response, ex) -> {
					if (ex != null || response.statusCode() != 200) {
						failed.incrementAndGet();
						String reason = (ex != null) ? ex.getClass().getSimpleName() : "HTTP " + response.statusCode();
						failures.computeIfAbsent(reason, (key) -> new AtomicInteger()).incrementAndGet();
						opened.countDown();
					}
					return null;
				});
		}
		if (opened.await(openTimeout, TimeUnit.SECONDS)) {
			out.println("OPEN " + streams);
		}
		else {
			out.println("NOT OPEN " + opened.getCount() + " of " + streams + " streams without a first event");
		}
		out.flush();
		CompletableFuture.allOf(done).get(30, TimeUnit.MINUTES);
		long[] gaps = new long[streams * (maxTokens + 4)];
		long[] firsts = new long[streams];
		int gapCount = 0;
		int firstCount = 0;
		long events = 0;
		int complete = 0;
		for (Stream stream : held) {
			events += stream.events;
			if (stream.events > 0) {
				firsts[firstCount++] = stream.arrivals[0] - stream.sentAt;
			}
			if (stream.events >= maxTokens) {
				complete++;
			}
			for (int e = 1; e < stream.events; e++) {
				gaps[gapCount++] = stream.arrivals[e] - stream.arrivals[e - 1];
			}
		}
		Arrays.sort(gaps, 0, gapCount);
		Arrays.sort(firsts, 0, firstCount);
		out.printf("streams %d complete %d failed %d events %d%n", streams, complete, failed.get(), events);
		out.printf("gap_ms p50 %.2f p90 %.2f p99 %.2f p99.9 %.2f max %.2f%n", millis(gaps, gapCount, 0.50),
				millis(gaps, gapCount, 0.90), millis(gaps, gapCount, 0.99), millis(gaps, gapCount, 0.999),
				millis(gaps, gapCount, 1.0));
		out.printf("first_event_ms p50 %.2f p99 %.2f%n", millis(firsts, firstCount, 0.50),
				millis(firsts, firstCount, 0.99));
		if (!failures.isEmpty()) {
			out.println("failures " + failures);
		}
		out.flush();
		return (failed.get() == 0) ? 0 : 1;
	}

	private static double millis(long[] sorted, int count, double quantile) {
		if (count == 0) {
			return Double.NaN;
		}
		int index = (int) Math.min(count - 1, Math.max(0, Math.ceil(quantile * count) - 1));
		return sorted[index] / 1e6;
	}

	private static String required(Map<String, String> options, String name) {
		String value = options.get(name);
		if (value == null) {
			throw new IllegalArgumentException("--" + name + " is required");
		}
		return value;
	}
}
