package io.infergate.bench.scheduling;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingProfile.WeightedScorer;
import io.infergate.routing.scheduling.SchedulingResult;
import io.infergate.routing.scheduling.filter.ReadyFilter;
import io.infergate.routing.scheduling.filter.SaturationFilter;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.SaturationProperties;
import io.infergate.routing.scheduling.scorer.LoraAffinityScorer;
import io.infergate.routing.scheduling.scorer.MetricScorer;

/**
 * Time and allocation of one scheduling decision: filters {@code ready} and {@code saturation}, scorers
 * {@code queue} 2, {@code kv-cache} 2, {@code least-request} 1 and {@code lora-affinity} 1, picker
 * {@code max-score}, decision recording off.
 * <p>
 * The pool's endpoints get seeded random figures: 0..7 waiting requests and KV-cache usage 0.05..0.95, so about a
 * third are saturated and the filter narrows the list; 0..15 requests in flight; 4 LoRA slots with 0..3 of the
 * adapters a, b, c running; every snapshot fresh. The request asks for adapter {@code a}.
 * <pre>
 * ./mvnw -B -q -pl bench -am -DskipTests package
 * java -jar bench/target/routing-bench.jar SchedulingBenchmark -f 1 -wi 3 -i 5 -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode({ Mode.AverageTime, Mode.SampleTime })
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SchedulingBenchmark {

	private static final long NOW_MILLIS = 1_700_000_000_000L;

	private static final String[] ADAPTERS = { "a", "b", "c" };

	@Param({ "8", "64", "256" })
	public int endpoints;

	private final Scheduler scheduler = new Scheduler();

	private SchedulingProfile profile;

	private List<Endpoint> pool;

	private InferenceRequest request;

	private SplittableRandom random;

	@Setup
	public void setUp() {
		SaturationDetector detector = new SaturationDetector(SaturationProperties.defaults());
		profile = new SchedulingProfile("bench",
				List.of(new ReadyFilter(detector), new SaturationFilter(detector)),
				List.of(new WeightedScorer(MetricScorer.predefined(MetricScorer.QUEUE), 2),
						new WeightedScorer(MetricScorer.predefined(MetricScorer.KV_CACHE), 2),
						new WeightedScorer(MetricScorer.predefined(MetricScorer.LEAST_REQUEST), 1),
						new WeightedScorer(new LoraAffinityScorer(), 1)),
				new MaxScorePicker());
		SplittableRandom setup = new SplittableRandom(42);
		pool = new ArrayList<>(endpoints);
		for (int i = 0; i < endpoints; i++) {
			Endpoint endpoint = new Endpoint("bench", URI.create("http://10.0." + (i / 250) + "." + (i % 250 + 1)
					+ ":8000"));
			Set<String> running = new HashSet<>();
			for (String adapter : ADAPTERS) {
				if (setup.nextBoolean()) {
					running.add(adapter);
				}
			}
			EndpointMetrics metrics = new EndpointMetrics(setup.nextInt(8), setup.nextInt(64),
					0.05 + 0.9 * setup.nextDouble(), 16, 29_000, 4, running, Set.of());
			endpoint.publish(new EndpointSnapshot(metrics, NOW_MILLIS - setup.nextInt(150), 0));
			int inFlight = setup.nextInt(16);
			for (int r = 0; r < inFlight; r++) {
				endpoint.acquire(512);
			}
			pool.add(endpoint);
		}
		pool = List.copyOf(pool);
		request = new InferenceRequest("demo-llama", "bench", "meta-llama/Llama-3.1-8B-Instruct", "a",
				"Hello there", 3, 256, false, null, 0);
		random = new SplittableRandom(7);
	}

	@Benchmark
	public SchedulingResult decide() {
		return scheduler.schedule(profile, new SchedulingCycle(request, NOW_MILLIS, random, false), pool);
	}
}
