package io.infergate.gateway.warmup;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggerConfiguration;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.web.context.reactive.StandardReactiveWebEnvironment;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

import io.infergate.gateway.InfergateGatewayApplication;
import io.infergate.routing.auth.ApiKeyHash;

/**
 * One warm-up: {@value #POD_COUNT} loopback model servers answering as a simulated vLLM pod once did
 * ({@link RecordedPods}), a throwaway gateway context in front of them on a loopback port, and a loopback load of
 * chat completions (non-streamed, streamed, and for a LoRA adapter) through it for the given time. Everything is closed before {@link #run()} returns; only what the
 * JIT compiled stays.
 * <p>
 * The throwaway context reads the jar's own {@code application.yml} and nothing of the application's
 * configuration (no files, environment variables, system properties or arguments), so it reaches no Redis,
 * collector, Kubernetes API or model server of the application's, and its meters stay out of Micrometer's global
 * registry. Logging stays as the application set it up; the throwaway context logs at WARN and above.
 */
public final class WarmupRun {

	static final int POD_COUNT = 4;

	static final String POOL = "warmup";

	static final String BASE_MODEL = "warmup-llama";

	static final String LORA_MODEL = "warmup-lora";

	private static final Duration FIRST_ANSWER_WITHIN = Duration.ofSeconds(60);

	/** Longest wait for the throwaway context to close. */
	static final Duration CLOSE_WITHIN = Duration.ofSeconds(30);

	private static final Log logger = LogFactory.getLog(WarmupRun.class);

	private static final SecureRandom RANDOM = new SecureRandom();

	private static final List<String> FAILURE_LOGGERS = List.of("org.springframework.boot.SpringApplication",
			"org.springframework.boot.diagnostics");

	private final Duration duration;

	private final int concurrency;

	private final boolean apiKeys;

	private final AtomicLong requests = new AtomicLong();

	private final AtomicLong failed = new AtomicLong();

	private final AtomicReference<String> firstFailure = new AtomicReference<>();

	/**
	 * @param duration how long to load the request path once the throwaway gateway answers
	 * @param concurrency requests kept in flight
	 * @param apiKeys whether the requests carry an API key through the API-key check, as the application's do
	 */
	public WarmupRun(Duration duration, int concurrency, boolean apiKeys) {
		this.duration = duration;
		this.concurrency = concurrency;
		this.apiKeys = apiKeys;
	}

	/** What a run did. */
	public record Result(long requests, long failed, String firstFailure, long loadMillis, long totalMillis) {
	}

	public Result run() {
		long start = System.nanoTime();
		RecordedPods pods = null;
		ConfigurableApplicationContext context = null;
		ConnectionProvider connections = ConnectionProvider.builder("infergate-warmup")
			.maxConnections(this.concurrency)
			.pendingAcquireMaxCount(-1)
			.build();
		long loadMillis = 0;
		try {
			pods = RecordedPods.start(POD_COUNT, BASE_MODEL, LORA_MODEL);
			String secret = this.apiKeys ? "sk-warmup-" + HexFormat.of().formatHex(randomBytes()) : null;
			context = startGateway(properties(pods.baseUrls(), secret));
			int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
			HttpClient client = client(connections, port, secret);
			awaitFirstAnswer(client);
			long loadStart = System.nanoTime();
			load(client);
			loadMillis = Duration.ofNanos(System.nanoTime() - loadStart).toMillis();
		}
		finally {
			connections.disposeLater().block(Duration.ofSeconds(5));
			if (context != null) {
				close(context, CLOSE_WITHIN);
			}
			if (pods != null) {
				pods.close();
			}
		}
		return new Result(this.requests.get(), this.failed.get(), this.firstFailure.get(), loadMillis,
				Duration.ofNanos(System.nanoTime() - start).toMillis());
	}

	/**
	 * Closes the throwaway context, waiting at most {@code within} ({@link #CLOSE_WITHIN}): the warm-up must never hold up the
	 * application's start. Closing disposes Reactor Netty's shared HTTP resources, and that disposal has been seen
	 * to block for good once in a test run (the context's {@code ReactorResourceFactory.stop()} waiting on
	 * {@code HttpResources.disposeLoopsAndConnectionsLater} while the shared event loops idled); a close that takes
	 * longer is left to finish on its own daemon thread and said in a WARN line.
	 * @return whether the context closed in time
	 */
	static boolean close(ConfigurableApplicationContext context, Duration within) {
		Thread closing = new Thread(context::close, "infergate-warmup-close");
		closing.setDaemon(true);
		closing.start();
		try {
			closing.join(within.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (closing.isAlive()) {
			logger.warn("The warm-up's throwaway gateway did not close within " + within.toMillis()
					+ " ms; the application starts without waiting for it");
			return false;
		}
		return true;
	}

	private static Map<String, Object> properties(List<String> pods, String secret) {
		Map<String, Object> properties = new LinkedHashMap<>();
		// the jar's own defaults and nothing from the working directory
		properties.put("spring.config.location", "optional:classpath:/");
		properties.put("server.address", "127.0.0.1");
		properties.put("server.port", 0);
		properties.put("server.shutdown", "immediate");
		properties.put("spring.lifecycle.timeout-per-shutdown-phase", "1s");
		properties.put("spring.reactor.netty.shutdown-quiet-period", "0s");
		properties.put("management.server.port", -1);
		properties.put("management.metrics.use-global-registry", false);
		properties.put("spring.main.banner-mode", "off");
		properties.put("spring.main.log-startup-info", false);
		properties.put("infergate.demo.enabled", false);
		// a password no one knows, so no generated one is announced; the context has no management port anyway
		properties.put("infergate.management.admin.password-hash", unknownBcryptHash());
		for (int i = 0; i < pods.size(); i++) {
			properties.put("infergate.pools." + POOL + ".endpoints[" + i + "]", pods.get(i));
		}
		properties.put("infergate.models." + BASE_MODEL + ".pool", POOL);
		properties.put("infergate.models." + BASE_MODEL + ".target-model", BASE_MODEL);
		properties.put("infergate.models." + LORA_MODEL + ".pool", POOL);
		properties.put("infergate.models." + LORA_MODEL + ".target-model", BASE_MODEL);
		properties.put("infergate.models." + LORA_MODEL + ".adapter", LORA_MODEL);
		if (secret != null) {
			properties.put("infergate.auth.enabled", true);
			properties.put("infergate.auth.keys.warmup.sha256", ApiKeyHash.sha256Hex(secret));
		}
		return properties;
	}

	private static ConfigurableApplicationContext startGateway(Map<String, Object> properties) {
		SpringApplication application = new SpringApplication(InfergateGatewayApplication.class);
		application.setWebApplicationType(WebApplicationType.REACTIVE);
		application.setBannerMode(Banner.Mode.OFF);
		application.setLogStartupInfo(false);
		application.setRegisterShutdownHook(false);
		application.setEnvironment(new WarmupEnvironment(properties));
		// the application's logging is set up already: the throwaway context must not replace or reset it
		LoggingSystem logging = LoggingSystem.get(WarmupRun.class.getClassLoader());
		LoggerConfiguration root = logging.getLoggerConfiguration(LoggingSystem.ROOT_LOGGER_NAME);
		LogLevel rootLevel = (root == null) ? null
				: (root.getConfiguredLevel() != null) ? root.getConfiguredLevel() : root.getEffectiveLevel();
		String loggingSystem = System.getProperty(LoggingSystem.SYSTEM_PROPERTY);
		System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
		logging.setLogLevel(LoggingSystem.ROOT_LOGGER_NAME, LogLevel.WARN);
		// a throwaway context that fails to start is reported by RequestPathWarmup in one line, not as a failed
		// application with its stack trace
		Map<String, LogLevel> failureLevels = new LinkedHashMap<>();
		for (String failureLogger : FAILURE_LOGGERS) {
			LoggerConfiguration configuration = logging.getLoggerConfiguration(failureLogger);
			failureLevels.put(failureLogger, (configuration != null) ? configuration.getConfiguredLevel() : null);
			logging.setLogLevel(failureLogger, LogLevel.OFF);
		}
		try {
			return application.run();
		}
		finally {
			failureLevels.forEach(logging::setLogLevel);
			if (loggingSystem == null) {
				System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
			}
			else {
				System.setProperty(LoggingSystem.SYSTEM_PROPERTY, loggingSystem);
			}
			if (rootLevel != null) {
				logging.setLogLevel(LoggingSystem.ROOT_LOGGER_NAME, rootLevel);
			}
		}
	}

	private HttpClient client(ConnectionProvider connections, int port, String secret) {
		return HttpClient.create(connections).baseUrl("http://127.0.0.1:" + port).headers((headers) -> {
			headers.set("content-type", "application/json");
			if (secret != null) {
				headers.set("authorization", "Bearer " + secret);
			}
		});
	}

	private void awaitFirstAnswer(HttpClient client) {
		long deadline = System.nanoTime() + FIRST_ANSWER_WITHIN.toNanos();
		String last = "no answer";
		while (System.nanoTime() < deadline) {
			try {
				String outcome = exchange(client, 0).block(Duration.ofSeconds(10));
				if (outcome == null) {
					return;
				}
				last = outcome;
			}
			catch (RuntimeException ex) {
				last = ex.toString();
			}
			sleep(100);
		}
		throw new IllegalStateException("the warm-up gateway did not answer within " + FIRST_ANSWER_WITHIN.toSeconds()
				+ " s: " + last);
	}

	private void load(HttpClient client) {
		long deadline = System.nanoTime() + this.duration.toNanos();
		Flux.range(1, Integer.MAX_VALUE)
			.takeWhile((i) -> System.nanoTime() < deadline)
			.flatMap((i) -> exchange(client, i).defaultIfEmpty("").onErrorResume((ex) -> Mono.just(ex.toString())),
					this.concurrency)
			.doOnNext((outcome) -> {
				this.requests.incrementAndGet();
				if (!outcome.isEmpty()) {
					this.failed.incrementAndGet();
					this.firstFailure.compareAndSet(null, outcome);
				}
			})
			.blockLast(this.duration.plus(Duration.ofMinutes(1)));
	}

	/**
	 * Request {@code i}: five in eight non-streamed chat completions of the base model, two streamed, one for the
	 * adapter, with 32 distinct system prompts so the prefix index both hits and misses. Empty when answered as it
	 * should be, otherwise what went wrong.
	 */
	private Mono<String> exchange(HttpClient client, int i) {
		int kind = i % 8;
		boolean stream = kind == 5 || kind == 6;
		String model = (kind == 7) ? LORA_MODEL : BASE_MODEL;
		String body = String.format(Locale.ROOT, "{\"model\":\"%s\",\"max_tokens\":8,\"stream\":%s,"
				+ "\"messages\":[{\"role\":\"system\",\"content\":\"You are assistant %d of the warm-up.\"},"
				+ "{\"role\":\"user\",\"content\":\"Name three prime numbers above %d.\"}]}", model, stream, i % 32,
				i);
		return client.post()
			.uri("/v1/chat/completions")
			.send(ByteBufFlux.fromString(Mono.just(body)))
			.responseSingle((response, content) -> content.asString().defaultIfEmpty("").map((text) -> {
				int status = response.status().code();
				if (status != 200) {
					return "HTTP " + status + " " + text.substring(0, Math.min(200, text.length()));
				}
				if (stream && !text.contains("data: [DONE]")) {
					return "a stream without data: [DONE]";
				}
				return "";
			}))
			.filter((outcome) -> !outcome.isEmpty());
	}

	private static String unknownBcryptHash() {
		String alphabet = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
		StringBuilder hash = new StringBuilder("{bcrypt}$2a$10$");
		for (int i = 0; i < 53; i++) {
			hash.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
		}
		return hash.toString();
	}

	private static byte[] randomBytes() {
		byte[] bytes = new byte[24];
		RANDOM.nextBytes(bytes);
		return bytes;
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted during the warm-up", ex);
		}
	}

	/** An environment holding only the warm-up's properties: no system properties or environment variables. */
	static final class WarmupEnvironment extends StandardReactiveWebEnvironment {

		WarmupEnvironment(Map<String, Object> properties) {
			getPropertySources().addFirst(new MapPropertySource("infergate-warmup", properties));
		}

		@Override
		protected void customizePropertySources(MutablePropertySources propertySources) {
		}
	}
}
