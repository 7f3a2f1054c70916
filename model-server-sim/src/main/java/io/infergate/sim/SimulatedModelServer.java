package io.infergate.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import io.infergate.sim.engine.ChatPrompt;
import io.infergate.sim.engine.KvEventSink;
import io.infergate.sim.engine.MetricsSnapshot;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.sim.engine.WallClockEngine;
import io.infergate.sim.fault.FaultInjector;
import io.infergate.sim.http.EmbeddingsHandler;
import io.infergate.sim.http.FallbackHandler;
import io.infergate.sim.http.FaultsHandler;
import io.infergate.sim.http.GenerationHandler;
import io.infergate.sim.http.MetricsHandler;
import io.infergate.sim.http.ModelsHandler;
import io.infergate.sim.http.ResetPrefixCacheHandler;
import io.infergate.sim.http.ResponsesHandler;
import io.infergate.sim.http.ScoringHandler;
import io.infergate.sim.http.TokenizerHandler;
import io.infergate.sim.http.TraceHeaders;
import io.infergate.sim.kvevents.KvEventPublisher;
import io.infergate.sim.metrics.PrometheusExposition;

/**
 * One simulated model server: a {@link WallClockEngine} behind the OpenAI API and {@code /metrics}, on the JDK's
 * HTTP server. Embeddable: several can run in one JVM, each on its own port.
 *
 * <pre>{@code
 * try (SimulatedModelServer server = new SimulatedModelServer(SimulatorConfig.builder("demo-llama").build()).start()) {
 *     String url = server.baseUrl();   // http://127.0.0.1:<port>
 * }
 * }</pre>
 *
 * HTTP requests are served by at most {@value #MAX_HTTP_THREADS} threads, created on demand and retired after
 * {@value #HTTP_THREAD_KEEP_ALIVE_SECONDS} s idle; each open stream holds one. With
 * {@link SimulatorConfig#kvEventsEnabled()} the engine's KV-cache events are published on ZeroMQ as vLLM publishes
 * them ({@link KvEventPublisher}). Every request is tokenized by {@link SimulatorConfig#promptEncoder()}: the
 * stand-in, or a model's own tokenizer. {@link #close()} stops the engine, the threads and the listening sockets.
 */
public final class SimulatedModelServer implements AutoCloseable {

	public static final int MAX_HTTP_THREADS = 1024;

	public static final int HTTP_THREAD_KEEP_ALIVE_SECONDS = 30;

	private static final int ACCEPT_BACKLOG = 1024;

	private static final AtomicBoolean parserWarmedUp = new AtomicBoolean();

	static {
		// Without TCP_NODELAY the JDK server's separate header and body writes meet the client's delayed ACK,
		// adding about 40 ms to every small response. The server reads this once, so set it before the first one.
		if (System.getProperty("sun.net.httpserver.nodelay") == null) {
			System.setProperty("sun.net.httpserver.nodelay", "true");
		}
	}

	private final SimulatorConfig config;

	private final FaultInjector faults = new FaultInjector();

	private final TraceHeaders traceHeaders = new TraceHeaders();

	private final WallClockEngine engine;

	private HttpServer httpServer;

	private ThreadPoolExecutor httpExecutor;

	private volatile KvEventPublisher kvEventPublisher;

	public SimulatedModelServer(SimulatorConfig config) {
		this.config = config;
		KvEventSink kvEvents = KvEventSink.NONE;
		if (config.kvEventsEnabled()) {
			kvEvents = (batch) -> {
				KvEventPublisher publisher = this.kvEventPublisher;
				if (publisher != null) {
					publisher.publish(batch);
				}
			};
		}
		this.engine = new WallClockEngine(config.engine(), config.timeScale(), GenerationHandler.ENGINE_LISTENER,
				"sim-engine-" + config.modelName(), kvEvents);
	}

	/**
	 * Binds the configured host and port (0: any free port) and starts serving.
	 * @throws UncheckedIOException if the port cannot be bound
	 */
	public synchronized SimulatedModelServer start() {
		if (this.httpServer != null) {
			throw new IllegalStateException("already started");
		}
		HttpServer server;
		try {
			server = HttpServer.create(new InetSocketAddress(this.config.host(), this.config.port()), ACCEPT_BACKLOG);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot listen on " + this.config.host() + ":" + this.config.port(), ex);
		}
		String model = this.config.modelName();
		PromptEncoder encoder = this.config.promptEncoder();
		server.createContext("/v1/chat/completions", new GenerationHandler(true, model, this.engine, encoder,
				this.faults, this.traceHeaders));
		server.createContext("/v1/completions", new GenerationHandler(false, model, this.engine, encoder,
				this.faults, this.traceHeaders));
		server.createContext("/v1/responses", new ResponsesHandler(model, this.engine, encoder, this.faults));
		server.createContext("/v1/embeddings", new EmbeddingsHandler(model, this.engine, encoder, this.faults));
		server.createContext("/v1/rerank", new ScoringHandler(true, model, this.engine, encoder, this.faults));
		server.createContext("/v1/score", new ScoringHandler(false, model, this.engine, encoder, this.faults));
		List<String> adapters = this.config.engine().loraModules();
		int maxModelLen = this.config.engine().maxModelLen();
		if (this.config.engineFlavor().servesTokenizerEndpoints()) {
			server.createContext("/tokenize", new TokenizerHandler(true, model, adapters, maxModelLen, encoder));
			server.createContext("/detokenize", new TokenizerHandler(false, model, adapters, maxModelLen, encoder));
		}
		server.createContext("/v1/models", new ModelsHandler(model, adapters, maxModelLen));
		MetricsHandler metrics = new MetricsHandler(this.config.engineFlavor(), model, this.engine, this.faults);
		server.createContext("/metrics", metrics);
		// trtllm-serve's /metrics is JSON; its Prometheus text is at /prometheus/metrics
		server.createContext("/prometheus/metrics", metrics);
		server.createContext("/sim/faults", new FaultsHandler(this.faults));
		server.createContext(ResetPrefixCacheHandler.PATH, new ResetPrefixCacheHandler(this.engine));
		server.createContext("/", new FallbackHandler());
		if (this.config.kvEventsEnabled()) {
			try {
				this.kvEventPublisher = new KvEventPublisher(this.config.host(), this.config.kvEventsPort(),
						this.config.kvEventsReplayPort(), this.config.kvEventsTopic(),
						this.config.kvEventsBufferBatches());
			}
			catch (RuntimeException ex) {
				server.stop(0);
				throw new UncheckedIOException("cannot publish KV events on " + this.config.host() + ":"
						+ this.config.kvEventsPort(), new IOException(ex.getMessage(), ex));
			}
		}
		this.httpExecutor = newHttpExecutor();
		server.setExecutor(this.httpExecutor);
		this.engine.start();
		server.start();
		this.httpServer = server;
		warmUpParserOnce();
		return this;
	}

	private static void warmUpParserOnce() {
		if (parserWarmedUp.compareAndSet(false, true)) {
			Thread warmUp = new Thread(GenerationHandler::warmUpParser, "sim-json-warm-up");
			warmUp.setDaemon(true);
			warmUp.start();
		}
	}

	private ThreadPoolExecutor newHttpExecutor() {
		AtomicInteger threadNumber = new AtomicInteger();
		String prefix = "sim-http-" + this.config.modelName() + "-";
		ThreadPoolExecutor executor = new ThreadPoolExecutor(MAX_HTTP_THREADS, MAX_HTTP_THREADS,
				HTTP_THREAD_KEEP_ALIVE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), (task) -> {
					Thread thread = new Thread(task, prefix + threadNumber.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	/** The bound port; the configured one, or the one chosen when configured with 0. */
	public synchronized int port() {
		if (this.httpServer == null) {
			throw new IllegalStateException("not started");
		}
		return this.httpServer.getAddress().getPort();
	}

	/** {@code http://host:port}, without a trailing slash. */
	public String baseUrl() {
		String host = this.config.host();
		return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port();
	}

	public SimulatorConfig config() {
		return this.config;
	}

	/** The port KV-cache events are published on, or {@link SimulatorConfig#OFF} when they are not. */
	public int kvEventsPort() {
		KvEventPublisher publisher = this.kvEventPublisher;
		return (publisher != null) ? publisher.port() : SimulatorConfig.OFF;
	}

	/** The port of the KV-event replay socket, or {@link SimulatorConfig#OFF} when there is none. */
	public int kvEventsReplayPort() {
		KvEventPublisher publisher = this.kvEventPublisher;
		return (publisher != null) ? publisher.replayPort() : SimulatorConfig.OFF;
	}

	/** Drops every cached prefix block (see {@code POST /reset_prefix_cache}); false while requests hold blocks. */
	public boolean resetPrefixCache() {
		return this.engine.resetPrefixCache();
	}

	/** Faults to inject; also reachable at {@code /sim/faults}. */
	public FaultInjector faults() {
		return this.faults;
	}

	/**
	 * The W3C {@code traceparent} headers of the most recent generation requests, oldest first (at most
	 * {@value TraceHeaders#CAPACITY}; requests without one are not recorded).
	 */
	public List<String> receivedTraceparents() {
		return this.traceHeaders.recent();
	}

	/** The figures {@code /metrics} shows, read now. */
	public MetricsSnapshot metrics() {
		return this.engine.metrics();
	}

	/** The {@code /metrics} text, without HTTP. */
	public String metricsText() {
		return PrometheusExposition.render(this.config.engineFlavor(), this.config.modelName(), metrics());
	}

	/**
	 * Leading tokens of {@code promptTokens} a request for {@code adapter} (null: base model) would take from the
	 * prefix cache if admitted now. No side effects.
	 */
	public int cachedPrefixTokens(int[] promptTokens, String adapter) {
		return this.engine.cachedPrefixTokens(promptTokens, adapter);
	}

	/** The same for a completions prompt, tokenized as the server tokenizes one. */
	public int cachedPrefixTokens(String prompt, String adapter) {
		return cachedPrefixTokens(this.config.promptEncoder().encodePrompt(prompt), adapter);
	}

	/**
	 * The same for a chat request's messages, rendered and tokenized as the server does
	 * ({@code ChatPrompt.of(messages)}).
	 * @throws io.infergate.tokenizers.TokenizerException when the model's chat template cannot render them
	 */
	public int cachedPrefixTokens(ChatPrompt chat, String adapter) {
		return cachedPrefixTokens(this.config.promptEncoder().encodeChat(chat), adapter);
	}

	/** Stops serving: releases stalled scrapes, closes the socket, ends the engine and HTTP threads. */
	@Override
	public synchronized void close() {
		this.faults.clear();
		if (this.httpServer != null) {
			this.httpServer.stop(0);
		}
		this.engine.close();
		if (this.kvEventPublisher != null) {
			this.kvEventPublisher.close();
		}
		if (this.httpExecutor != null) {
			this.httpExecutor.shutdownNow();
			try {
				this.httpExecutor.awaitTermination(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}
}
