package io.infergate.bench.quality.live;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.infergate.bench.quality.replay.Policy;
import io.infergate.bench.quality.replay.Replay;
import io.infergate.bench.quality.workload.Workload;
import io.infergate.sim.engine.EngineConfig;

/**
 * The processes of one live run on loopback: one simulator jar per pod of the workload's cluster, run at
 * {@code timeScale}, a {@code redis-server} when the policy shares dispatches, and N gateway jars routing one pool
 * of those pods with the policy's profile. Every process logs to its own file under the log directory, and
 * {@link #close()} stops all of them, the gateways first and gracefully.
 * <p>
 * With a capture directory, gateway G writes its traffic capture ({@code infergate.capture.*}) to
 * {@code DIR/gateway-G}; its files are complete once {@link #close()} returns.
 * <p>
 * When the policy's profile reads KV-cache events ({@code precise}), every pod publishes them (a ZeroMQ PUB and a
 * replay socket on free ports) and every gateway subscribes to every pod.
 * <p>
 * The gateways' clocks are wall time while the pods run {@code timeScale} times faster than the modelled GPU, so the
 * gateway settings that are durations are divided by the time scale: the metrics scrape interval (50 ms of model
 * time) and the saturation staleness threshold (200 ms of model time).
 */
final class LocalCluster implements AutoCloseable {

	private static final Duration STARTUP = Duration.ofSeconds(120);

	/**
	 * How long a gateway may take to stop after SIGTERM: its graceful shutdown phase (30 s by default) finishes open
	 * responses, then the capture writes out its queue and closes its file.
	 */
	private static final Duration GATEWAY_STOP = Duration.ofSeconds(30);

	private static final Duration PROCESS_STOP = Duration.ofSeconds(15);

	private static final HttpClient HTTP = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(2))
		.build();

	/** Pods and Redis, in start order. */
	private final List<Process> processes = new ArrayList<>();

	private final List<Process> gatewayProcesses = new ArrayList<>();

	private final List<URI> pods = new ArrayList<>();

	private final List<URI> gateways = new ArrayList<>();

	/** Per pod, its KV-event publisher and replay ports; empty unless the policy reads KV events. */
	private final List<int[]> kvEventPorts = new ArrayList<>();

	private final Path logs;

	private LocalCluster(Path logs) {
		this.logs = logs;
	}

	/**
	 * Starts every process and waits until each pod answers {@code /health} and each gateway is ready.
	 */
	static LocalCluster start(Workload workload, Policy policy, int gatewayCount, double timeScale, Path simJar,
			Path gatewayJar, Path logs, Path captures) throws IOException {
		Files.createDirectories(logs);
		LocalCluster cluster = new LocalCluster(logs);
		try {
			cluster.startPods(workload, Replay.readsKvEvents(policy.name()), timeScale, simJar);
			URI redis = policy.dispatchSharing() ? cluster.startRedis() : null;
			for (int g = 0; g < gatewayCount; g++) {
				cluster.startGateway(g, workload, policy, timeScale, redis, gatewayJar,
						(captures != null) ? captures.resolve("gateway-" + g) : null);
			}
			return cluster;
		}
		catch (IOException | RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	List<URI> pods() {
		return pods;
	}

	List<URI> gateways() {
		return gateways;
	}

	private void startPods(Workload workload, boolean kvEvents, double timeScale, Path simJar) throws IOException {
		Workload.Cluster cluster = workload.cluster();
		List<Integer> ports = new ArrayList<>();
		for (int i = 0; i < cluster.pods(); i++) {
			EngineConfig engine = cluster.engineConfig(i);
			int port = freePort();
			List<String> command = new ArrayList<>(List.of(java(), "-Xmx256m", "-XX:+UseSerialGC", "-jar",
					simJar.toString(), "--port", Integer.toString(port), "--model", Replay.MODEL, "--max-num-seqs",
					Integer.toString(engine.maxNumSeqs()), "--kv-blocks", Integer.toString(engine.numKvBlocks()),
					"--block-size", Integer.toString(engine.blockSize()), "--max-num-batched-tokens",
					Integer.toString(engine.maxNumBatchedTokens()), "--perf-profile", engine.perfProfile().name(),
					"--time-scale", Double.toString(timeScale)));
			if (cluster.priorityScheduling()) {
				command.addAll(List.of("--scheduling-policy", cluster.schedulingPolicy().cliName()));
			}
			if (!cluster.adapters().isEmpty()) {
				command.addAll(List.of("--lora-modules", String.join(",", cluster.adapters()), "--max-loras",
						Integer.toString(engine.maxLoras())));
			}
			if (kvEvents) {
				int[] eventPorts = { freePort(), freePort() };
				kvEventPorts.add(eventPorts);
				command.addAll(List.of("--kv-events-port", Integer.toString(eventPorts[0]), "--kv-events-replay-port",
						Integer.toString(eventPorts[1])));
			}
			processes.add(launch("pod-" + i, command));
			ports.add(port);
		}
		for (int port : ports) {
			URI pod = URI.create("http://127.0.0.1:" + port);
			awaitHttp200(pod.resolve("/health"), "pod " + pod);
			pods.add(pod);
		}
	}

	private URI startRedis() throws IOException {
		int port = freePort();
		processes.add(launch("redis", List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
				"--save", "", "--appendonly", "no")));
		URI redis = URI.create("redis://127.0.0.1:" + port);
		await(() -> {
			try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
				return true;
			}
			catch (IOException ex) {
				return false;
			}
		}, "redis-server on port " + port);
		return redis;
	}

	private void startGateway(int index, Workload workload, Policy policy, double timeScale, URI redis,
			Path gatewayJar, Path capture) throws IOException {
		int port = freePort();
		int managementPort = freePort();
		List<String> command = new ArrayList<>(List.of(java(), "-Xmx512m", "-jar", gatewayJar.toString(),
				"--server.port=" + port, "--management.server.port=" + managementPort,
				"--infergate.demo.enabled=false",
				"--infergate.pools." + Replay.POOL + ".endpoints=" + String.join(",", pods.stream().map(URI::toString)
					.toList()),
				"--infergate.pools." + Replay.POOL + ".profile=" + policy.profile(),
				"--infergate.pools." + Replay.POOL + ".tokenizer.type=simulator",
				"--infergate.pools." + Replay.POOL + ".scrape.interval=" + modelMillis(Replay.SCRAPE_INTERVAL_MICROS / 1000,
						timeScale),
				"--infergate.scheduling.saturation.staleness-threshold=" + modelMillis(200, timeScale),
				"--infergate.models." + Replay.MODEL + ".pool=" + Replay.POOL,
				"--infergate.models." + Replay.MODEL + ".target-model=" + Replay.MODEL));
		for (String adapter : workload.cluster().adapters()) {
			command.addAll(List.of("--infergate.models." + adapter + ".pool=" + Replay.POOL,
					"--infergate.models." + adapter + ".target-model=" + Replay.MODEL,
					"--infergate.models." + adapter + ".adapter=" + adapter));
		}
		if (!kvEventPorts.isEmpty()) {
			command.add("--infergate.pools." + Replay.POOL + ".kv-events.enabled=true");
		}
		for (int i = 0; i < kvEventPorts.size(); i++) {
			String addresses = "--infergate.pools." + Replay.POOL + ".kv-events.addresses[" + pods.get(i).getHost()
					+ ":" + pods.get(i).getPort() + "].";
			command.addAll(List.of(addresses + "publisher=tcp://127.0.0.1:" + kvEventPorts.get(i)[0],
					addresses + "replay=tcp://127.0.0.1:" + kvEventPorts.get(i)[1]));
		}
		if (workload.flowControl() != null) {
			command.add("--infergate.flow-control.enabled=" + workload.flowControl());
		}
		if (workload.cluster().priorityScheduling()) {
			command.add("--infergate.pools." + Replay.POOL + ".engine-priority=vllm");
		}
		if (redis != null) {
			command.addAll(List.of("--infergate.scheduling.dispatch-sharing.transport=redis",
					"--infergate.redis.url=" + redis));
		}
		if (capture != null) {
			command.addAll(List.of("--infergate.capture.enabled=true",
					"--infergate.capture.directory=" + capture.toAbsolutePath()));
		}
		gatewayProcesses.add(launch("gateway-" + index, command));
		awaitHttp200(URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/readiness"),
				"gateway " + index);
		gateways.add(URI.create("http://127.0.0.1:" + port));
	}

	/** A duration of model time as wall time for the gateways, e.g. {@code 500ms}. */
	static String modelMillis(long modelMillis, double timeScale) {
		return String.format(Locale.ROOT, "%dms", Math.max(1, Math.round(modelMillis / timeScale)));
	}

	private Process launch(String name, List<String> command) throws IOException {
		Path log = logs.resolve(name + ".log");
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	private void awaitHttp200(URI uri, String what) {
		await(() -> {
			try {
				return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).GET().build(),
						HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
			}
			catch (IOException ex) {
				return false;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}, what);
	}

	private void await(BooleanSupplier condition, String what) {
		long deadline = System.nanoTime() + STARTUP.toNanos();
		while (!condition.getAsBoolean()) {
			for (Process process : allProcesses()) {
				if (!process.isAlive()) {
					throw new IllegalStateException("a process of the live cluster exited while waiting for " + what
							+ "; see the logs in " + logs);
				}
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(what + " not ready after " + STARTUP.toSeconds() + " s; see " + logs);
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
	}

	private static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private List<Process> allProcesses() {
		List<Process> all = new ArrayList<>(processes);
		all.addAll(gatewayProcesses);
		return all;
	}

	/**
	 * Stops every process it started with SIGTERM: the gateways first, each given {@link #GATEWAY_STOP} to shut down
	 * gracefully (so their captures are complete files) before it is killed, then the pods and Redis.
	 */
	@Override
	public void close() {
		stop(gatewayProcesses, GATEWAY_STOP);
		stop(processes, PROCESS_STOP);
	}

	private static void stop(List<Process> started, Duration grace) {
		for (Process process : started) {
			process.destroy();
		}
		long deadline = System.nanoTime() + grace.toNanos();
		for (Process process : started) {
			try {
				if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
					process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				process.destroyForcibly();
			}
		}
		started.clear();
	}
}
