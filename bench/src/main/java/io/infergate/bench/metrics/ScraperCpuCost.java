package io.infergate.bench.metrics;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongUnaryOperator;

import com.sun.management.OperatingSystemMXBean;
import com.sun.net.httpserver.HttpServer;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.metrics.EngineMapping;
import io.infergate.routing.metrics.MetricsScrapers;
import io.infergate.routing.metrics.ScrapeSettings;
import io.infergate.routing.metrics.ScrapeStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The CPU the scraping side spends to keep N endpoints fresh: starts N loopback model servers in a child JVM, each
 * serving a ~34 KB vLLM exposition ({@link VllmExposition}), scrapes them all from this JVM at the given interval,
 * and reports this process's CPU time over the measured window as a percentage of one core, split by thread where
 * the JVM can tell, with the scrapes achieved per second. The servers' CPU is not counted: they run in the child.
 * The warm-up is long because JIT compilation of the HTTP client's paths otherwise shows in the window.
 * <p>
 * {@code java -cp bench/target/routing-bench.jar io.infergate.bench.metrics.ScraperCpuCost [--endpoints 64]
 * [--interval-ms 50] [--seconds 30] [--warmup-seconds 20] [--transports epoll,nio] [--rounds 1]}
 * <p>
 * With several transports, each round measures each of them in turn against the same servers (the order
 * alternating between rounds), and the medians over the rounds close the report.
 */
public final class ScraperCpuCost {

	private ScraperCpuCost() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = options(args);
		if (options.containsKey("serve")) {
			serve(Integer.parseInt(options.get("serve")));
			return;
		}
		int endpoints = Integer.parseInt(options.getOrDefault("endpoints", "64"));
		long intervalMillis = Long.parseLong(options.getOrDefault("interval-ms", "50"));
		int seconds = Integer.parseInt(options.getOrDefault("seconds", "30"));
		int warmupSeconds = Integer.parseInt(options.getOrDefault("warmup-seconds", "20"));

		List<String> transports = List.of(options.getOrDefault("transports", "epoll").split(","));
		int rounds = Integer.parseInt(options.getOrDefault("rounds", "1"));

		Process servers = startServers(endpoints);
		try {
			List<Integer> ports = readPorts(servers);
			Map<String, List<Double>> percents = new TreeMap<>();
			for (int round = 0; round < rounds; round++) {
				List<String> order = new ArrayList<>(transports);
				if (round % 2 == 1) {
					Collections.reverse(order);
				}
				for (String transport : order) {
					percents.computeIfAbsent(transport, (t) -> new ArrayList<>())
						.add(measure(ports, intervalMillis, seconds, warmupSeconds, transport));
				}
			}
			if (rounds > 1 || transports.size() > 1) {
				percents.forEach((transport, values) -> System.out.printf(Locale.ROOT,
						"median over %d rounds, %s: %.2f%% of one core %s%n", values.size(), transport,
						median(values), values));
			}
		}
		finally {
			servers.destroy();
		}
	}

	private static double median(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		sorted.sort(null);
		int n = sorted.size();
		return (n % 2 == 1) ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
	}

	/** One measurement; returns the process CPU as a percentage of one core. */
	private static double measure(List<Integer> ports, long intervalMillis, int seconds, int warmupSeconds,
			String transport) throws InterruptedException {
		if (!transport.equals("epoll") && !transport.equals("nio")) {
			throw new IllegalArgumentException("--transports takes epoll and nio, not " + transport);
		}
		OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		List<Endpoint> tracked = new ArrayList<>();
		ScrapeSettings settings = ScrapeSettings.defaults(EngineMapping.forEngine(EngineMapping.VLLM))
			.withIntervalMillis(intervalMillis);
		try (MetricsScrapers scrapers = new MetricsScrapers(new SimpleMeterRegistry(), InstantSource.system(),
				transport.equals("epoll"))) {
			for (int port : ports) {
				Endpoint endpoint = new Endpoint("bench", URI.create("http://127.0.0.1:" + port));
				tracked.add(endpoint);
				scrapers.track(endpoint, settings);
			}
			Thread.sleep(warmupSeconds * 1000L);

			long startNanos = System.nanoTime();
			long startCpuNanos = os.getProcessCpuTime();
			Map<Long, Long> startThreadCpu = threadTimes(threads, threads::getThreadCpuTime);
			Map<Long, Long> startThreadUser = threadTimes(threads, threads::getThreadUserTime);
			long[] startCounts = counts(scrapers, tracked);
			Thread.sleep(seconds * 1000L);
			long[] endCounts = counts(scrapers, tracked);
			Map<Long, Long> endThreadCpu = threadTimes(threads, threads::getThreadCpuTime);
			Map<Long, Long> endThreadUser = threadTimes(threads, threads::getThreadUserTime);
			long cpuNanos = os.getProcessCpuTime() - startCpuNanos;
			long wallNanos = System.nanoTime() - startNanos;

			double scrapesPerSecond = (endCounts[0] - startCounts[0]) * 1e9 / wallNanos;
			double failuresPerSecond = (endCounts[1] - startCounts[1]) * 1e9 / wallNanos;
			System.out.printf(Locale.ROOT, "endpoints=%d interval=%dms window=%.1fs cores=%d java=%s transport=%s%n",
					ports.size(), intervalMillis, wallNanos / 1e9, Runtime.getRuntime().availableProcessors(),
					System.getProperty("java.version"), scrapers.transport());
			System.out.printf(Locale.ROOT, "scrapes/s=%.1f (target %.1f) failures/s=%.2f%n", scrapesPerSecond,
					ports.size() * 1000.0 / intervalMillis, failuresPerSecond);
			System.out.printf(Locale.ROOT, "process CPU=%.2f%% of one core, %.1f us per scrape%n",
					100.0 * cpuNanos / wallNanos, (cpuNanos / 1e3) / Math.max(1, endCounts[0] - startCounts[0]));
			Map<String, Long> userByGroup = byGroup(threads, startThreadUser, endThreadUser);
			byGroup(threads, startThreadCpu, endThreadCpu).forEach((group, nanos) -> System.out.printf(Locale.ROOT,
					"  thread %-32s %6.2f%% of one core (in user mode %.2f%%, in the kernel %.2f%%)%n", group,
					100.0 * nanos / wallNanos, 100.0 * userByGroup.getOrDefault(group, 0L) / wallNanos,
					100.0 * (nanos - userByGroup.getOrDefault(group, 0L)) / wallNanos));
			return 100.0 * cpuNanos / wallNanos;
		}
	}

	/** Attempts and failures summed over the endpoints. */
	private static long[] counts(MetricsScrapers scrapers, List<Endpoint> endpoints) {
		long[] counts = new long[2];
		for (Endpoint endpoint : endpoints) {
			ScrapeStatus status = scrapers.status(endpoint.pool(), endpoint.id()).orElseThrow();
			counts[0] += status.scrapeCount();
			counts[1] += status.failureCount();
		}
		return counts;
	}

	/** Every live thread's time by its id, as {@code time} reads it (CPU time, or user time). */
	private static Map<Long, Long> threadTimes(ThreadMXBean threads, LongUnaryOperator time) {
		Map<Long, Long> times = new HashMap<>();
		for (long id : threads.getAllThreadIds()) {
			times.put(id, time.applyAsLong(id));
		}
		return times;
	}

	/**
	 * CPU per thread group over the window: threads alive at both ends only, so short-lived threads and the VM's
	 * own (GC, JIT) show only in the process total.
	 */
	private static Map<String, Long> byGroup(ThreadMXBean threads, Map<Long, Long> start, Map<Long, Long> end) {
		Map<String, Long> groups = new TreeMap<>();
		for (Map.Entry<Long, Long> entry : end.entrySet()) {
			Long before = start.get(entry.getKey());
			ThreadInfo info = threads.getThreadInfo(entry.getKey());
			if (before == null || info == null || before < 0 || entry.getValue() < 0) {
				continue;
			}
			String group = info.getThreadName().replaceAll("\\d+", "N");
			groups.merge(group, entry.getValue() - before, Long::sum);
		}
		groups.values().removeIf((nanos) -> nanos < 1_000_000);
		return groups;
	}

	private static Process startServers(int endpoints) throws IOException {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), ScraperCpuCost.class.getName(),
				"--serve", String.valueOf(endpoints))
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
	}

	private static List<Integer> readPorts(Process servers) throws IOException {
		BufferedReader out = new BufferedReader(new InputStreamReader(servers.getInputStream(), StandardCharsets.UTF_8));
		String line;
		while ((line = out.readLine()) != null) {
			if (line.startsWith("PORTS ")) {
				List<Integer> ports = new ArrayList<>();
				for (String port : line.substring(6).split(",")) {
					ports.add(Integer.parseInt(port));
				}
				return ports;
			}
		}
		throw new IOException("the server process exited before listing its ports");
	}

	/** The child: N servers, each with its own exposition, until the parent closes our stdin. */
	private static void serve(int endpoints) throws IOException {
		List<String> ports = new ArrayList<>();
		for (int i = 0; i < endpoints; i++) {
			byte[] exposition = VllmExposition.render(i, i % 7, 8 + i % 24, (i % 10) / 10.0);
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
			server.createContext("/metrics", (exchange) -> {
				exchange.getRequestBody().readAllBytes();
				exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
				exchange.sendResponseHeaders(200, exposition.length);
				exchange.getResponseBody().write(exposition);
				exchange.close();
			});
			server.start();
			ports.add(String.valueOf(server.getAddress().getPort()));
		}
		System.out.println("PORTS " + String.join(",", ports));
		System.out.flush();
		while (System.in.read() != -1) {
			// runs until the parent exits or destroys this process
		}
		System.exit(0);
	}

	private static Map<String, String> options(String[] args) {
		Map<String, String> options = new HashMap<>();
		for (int i = 0; i + 1 < args.length; i += 2) {
			if (!args[i].startsWith("--")) {
				throw new IllegalArgumentException("expected --name value, got " + args[i]);
			}
			options.put(args[i].substring(2), args[i + 1]);
		}
		return options;
	}
}
