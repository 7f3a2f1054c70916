package io.infergate.gateway.observe;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import io.infergate.routing.limits.TokenUsage;

/**
 * The gateway-side latency and usage histograms, measured from the bytes the gateway relays and tagged
 * {@code pool}, {@code model} (as the client asked for it) and {@code endpoint} ({@code host:port}):
 * <ul>
 * <li>{@value #TIME_TO_FIRST_TOKEN}: arrival to the first byte of the response body, which for a stream is its
 * first event;</li>
 * <li>{@value #TIME_PER_OUTPUT_TOKEN}: for a stream, (end − first event) / (output tokens − 1), when the response
 * reports its usage and has more than one output token; a non-streaming response shows no token timing;</li>
 * <li>{@value #REQUEST_DURATION}: arrival to the last byte of the response;</li>
 * <li>{@value #TOKEN_USAGE}: input and output tokens of the {@code usage} the model server reported
 * ({@code gen_ai.token.type} {@code input} / {@code output}); the gateway asks every stream for its usage chunk.</li>
 * </ul>
 * Only served responses are recorded ({@link CompletedRequest#isServed()}). The buckets are OpenTelemetry's
 * recommended ones for these GenAI metrics, extended to minutes for long generations. Meters are looked up without
 * allocating once created (one small key per request).
 */
public final class InferenceMeters {

	public static final String TIME_TO_FIRST_TOKEN = "gen_ai.server.time_to_first_token";

	public static final String TIME_PER_OUTPUT_TOKEN = "gen_ai.server.time_per_output_token";

	public static final String REQUEST_DURATION = "gen_ai.server.request.duration";

	public static final String TOKEN_USAGE = "gen_ai.client.token.usage";

	public static final String TOKEN_TYPE = "gen_ai.token.type";

	static final double[] TTFT_BUCKETS_SECONDS = { 0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
			1.0, 2.5, 5.0, 7.5, 10.0, 30.0, 60.0 };

	static final double[] TPOT_BUCKETS_SECONDS = { 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75,
			1.0, 2.5 };

	static final double[] DURATION_BUCKETS_SECONDS = { 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12,
			10.24, 20.48, 40.96, 81.92, 163.84, 327.68 };

	static final double[] TOKEN_BUCKETS = { 1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576 };

	private final MeterRegistry registry;

	private final ConcurrentMap<Key, Meters> meters = new ConcurrentHashMap<>();

	public InferenceMeters(MeterRegistry registry) {
		this.registry = registry;
	}

	public void record(CompletedRequest request) {
		if (!request.isServed()) {
			return;
		}
		Key key = new Key(request.pool(), request.model(), request.endpoint());
		Meters m = meters.get(key);
		if (m == null) {
			m = meters.computeIfAbsent(key, this::register);
		}
		m.timeToFirstToken.record(request.ttftNanos(), TimeUnit.NANOSECONDS);
		m.duration.record(request.durationNanos(), TimeUnit.NANOSECONDS);
		TokenUsage usage = request.usage();
		if (usage == null) {
			return;
		}
		m.inputTokens.record(usage.inputTokens());
		m.outputTokens.record(usage.outputTokens());
		if (request.stream() && usage.outputTokens() > 1) {
			long decodeNanos = request.durationNanos() - request.ttftNanos();
			m.timePerOutputToken.record(decodeNanos / (usage.outputTokens() - 1), TimeUnit.NANOSECONDS);
		}
	}

	private Meters register(Key key) {
		Tags tags = Tags.of("pool", key.pool(), "model", key.model(), "endpoint", key.endpoint());
		return new Meters(
				timer(TIME_TO_FIRST_TOKEN, "Time from a request's arrival to the first byte (event) of its response",
						TTFT_BUCKETS_SECONDS, tags),
				timer(TIME_PER_OUTPUT_TOKEN, "Time per output token after the first, of streamed responses",
						TPOT_BUCKETS_SECONDS, tags),
				timer(REQUEST_DURATION, "Time from a request's arrival to the last byte of its response",
						DURATION_BUCKETS_SECONDS, tags),
				tokens("input", tags), tokens("output", tags));
	}

	private Timer timer(String name, String description, double[] bucketsSeconds, Tags tags) {
		Duration[] buckets = new Duration[bucketsSeconds.length];
		for (int i = 0; i < buckets.length; i++) {
			buckets[i] = Duration.ofNanos(Math.round(bucketsSeconds[i] * 1e9));
		}
		return Timer.builder(name).description(description).serviceLevelObjectives(buckets).tags(tags).register(registry);
	}

	private DistributionSummary tokens(String type, Tags tags) {
		return DistributionSummary.builder(TOKEN_USAGE)
			.description("Tokens per request, from the usage the model server reported")
			.serviceLevelObjectives(TOKEN_BUCKETS)
			.tags(tags)
			.tag(TOKEN_TYPE, type)
			.register(registry);
	}

	private record Key(String pool, String model, String endpoint) {
	}

	private record Meters(Timer timeToFirstToken, Timer timePerOutputToken, Timer duration,
			DistributionSummary inputTokens, DistributionSummary outputTokens) {
	}
}
