package io.infergate.bench.prefix;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.prefix.PrefixIndex;
import io.infergate.routing.prefix.PrefixIndexProperties;
import io.infergate.routing.replica.DispatchChannel;
import io.infergate.routing.replica.DispatchSharing;
import io.infergate.routing.replica.PeerDispatch;
import io.infergate.routing.redis.SharedRedisClient;
import io.infergate.routing.replica.RedisDispatchChannel;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.EndpointLoad;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingProfile.WeightedScorer;
import io.infergate.routing.scheduling.SchedulingResult;
import io.infergate.routing.scheduling.load.EngineReportedLoad;
import io.infergate.routing.scheduling.load.InFlightLoad;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.scorer.EstimatedTtftScorer;

/**
 * What replica-consistent routing adds to one decision, and what a replica pays to hear of another's dispatch.
 * <ul>
 * <li>{@code decide}: one decision of {@code estimated-ttft} + {@code max-score} (the {@code hybrid} profile's scorer)
 * over {@link PrefixBenchmark}'s 100 endpoints with a warm prefix index, with the profile's {@code load} (in-flight
 * or engine-reported) and dispatch sharing off, over an in-process channel that drops what it is given (the encoding alone), or over Redis
 * (a {@code redis-server} this benchmark starts on a free loopback port: the publish as the scheduling thread pays it,
 * Lettuce's I/O thread doing the rest).</li>
 * <li>{@code receive}: a peer's dispatch arriving: decoding it and recording its blocks in a warm index (the same for
 * every parameter combination).</li>
 * </ul>
 * Requests: 64 system prompts of 8,192 characters (a 2,048-token prompt: 128 blocks) each followed by a question of
 * 512 characters, so a request has 136 blocks; each system prompt is already held by one endpoint.
 * <pre>
 * ./mvnw -B -q -pl bench -am -DskipTests package
 * java -jar bench/target/routing-bench.jar ReplicaSharingBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReplicaSharingBenchmark {

	private static final int GROUPS = 64;

	private static final String POOL = "bench";

	private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";

	@Param({ InFlightLoad.NAME, EngineReportedLoad.NAME })
	public String load;

	@Param({ "none", "in-process", "redis" })
	public String sharing;

	private final Scheduler scheduler = new Scheduler();

	private final PrefixIndex index = new PrefixIndex(PrefixIndexProperties.defaults());

	private SchedulingProfile profile;

	private List<Endpoint> pool;

	private InferenceRequest[] requests;

	private byte[][] peerDispatches;

	private Consumer<byte[]> receiver;

	private SplittableRandom random;

	private int next;

	private Process redis;

	private DispatchChannel channel;

	private SharedRedisClient redisClient;

	@Setup(Level.Trial)
	public void setUp() throws IOException {
		EndpointLoad endpointLoad = load.equals(InFlightLoad.NAME) ? new InFlightLoad() : new EngineReportedLoad();
		profile = new SchedulingProfile("hybrid", List.of(),
				List.of(new WeightedScorer(
						new EstimatedTtftScorer(EstimatedTtftScorer.NAME, index, EstimatedTtftScorer.Parameters.defaults()), 1)),
				new MaxScorePicker(), endpointLoad);
		SplittableRandom setup = new SplittableRandom(42);
		pool = PrefixBenchmark.pool(setup);
		for (Endpoint endpoint : pool) {
			for (int r = setup.nextInt(16); r > 0; r--) {
				endpoint.acquire(512);
			}
		}
		requests = new InferenceRequest[GROUPS * 4];
		peerDispatches = new byte[requests.length][];
		for (int i = 0; i < requests.length; i++) {
			String prompt = PrefixBenchmark.text(new SplittableRandom(i % GROUPS), 8192)
					+ PrefixBenchmark.text(new SplittableRandom(1000 + i), 512);
			requests[i] = new InferenceRequest(MODEL, POOL, MODEL, null, prompt,
					InferenceRequest.estimateTokens(prompt.length()), 256, true, null, 0);
			index.record(index.hash(requests[i]), pool.get(i % GROUPS).id());
			peerDispatches[i] = new PeerDispatch(7, POOL, pool.get(i % pool.size()).id(), index.hash(requests[i]))
				.encode();
		}
		channel = switch (sharing) {
			case "none" -> null;
			case "in-process" -> new Dropping();
			case "redis" -> redisChannel();
			default -> throw new IllegalArgumentException(sharing);
		};
		if (channel != null) {
			new DispatchSharing(index, channel, null).start();
		}
		Dropping peer = new Dropping();
		PrefixIndex peerIndex = new PrefixIndex(PrefixIndexProperties.defaults());
		for (InferenceRequest request : requests) {
			peerIndex.record(peerIndex.hash(request), pool.get(0).id());
		}
		new DispatchSharing(peerIndex, peer, null).start();
		receiver = peer.receiver;
		random = new SplittableRandom(7);
	}

	@TearDown(Level.Trial)
	public void tearDown() throws InterruptedException {
		if (channel != null) {
			channel.close();
		}
		if (redisClient != null) {
			redisClient.close();
		}
		if (redis != null) {
			redis.destroy();
			redis.waitFor(10, TimeUnit.SECONDS);
		}
	}

	@Benchmark
	public SchedulingResult decide() {
		InferenceRequest request = requests[next++ & (requests.length - 1)];
		return scheduler.schedule(profile, new SchedulingCycle(request, PrefixBenchmark.NOW_MILLIS, random, false), pool);
	}

	@Benchmark
	public int receive() {
		byte[] message = peerDispatches[next++ & (peerDispatches.length - 1)];
		receiver.accept(message);
		return message.length;
	}

	private DispatchChannel redisChannel() throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		redis = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save",
				"", "--appendonly", "no")
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (true) {
			try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
				break;
			}
			catch (IOException ex) {
				if (System.nanoTime() > deadline) {
					redis.destroy();
					throw new UncheckedIOException("redis-server did not start", ex);
				}
				Thread.onSpinWait();
			}
		}
		try {
			redisClient = new SharedRedisClient(URI.create("redis://127.0.0.1:" + port));
			return new RedisDispatchChannel(redisClient, "infergate:bench").start();
		}
		catch (RuntimeException | LinkageError ex) {
			redis.destroy();
			throw ex;
		}
	}

	/** A channel that keeps its receiver and drops what is published: the encoding's cost without a transport. */
	private static final class Dropping implements DispatchChannel {

		Consumer<byte[]> receiver;

		@Override
		public void publish(byte[] message) {
		}

		@Override
		public void subscribe(Consumer<byte[]> receiver) {
			this.receiver = receiver;
		}

		@Override
		public void close() {
		}
	}
}
