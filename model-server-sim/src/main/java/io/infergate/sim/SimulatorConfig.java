package io.infergate.sim;

import java.util.Objects;

import io.infergate.kvevents.KvEventFrames;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.sim.metrics.EngineFlavor;

/**
 * How to run one simulated model server: the served model name, the engine whose metric names to expose, where to
 * listen, how fast to run, the engine parameters, whether to publish vLLM's KV-cache events, and how to tokenize.
 * Defaults: vLLM names, loopback, port 0 (any free port), time scale 1 (real time), no KV events, the stand-in
 * tokenizer.
 */
public final class SimulatorConfig {

	public static final String DEFAULT_HOST = "127.0.0.1";

	/** A port setting meaning "no such socket". */
	public static final int OFF = -1;

	private final String modelName;

	private final EngineFlavor engineFlavor;

	private final String host;

	private final int port;

	private final double timeScale;

	private final EngineConfig engine;

	private final int kvEventsPort;

	private final int kvEventsReplayPort;

	private final String kvEventsTopic;

	private final int kvEventsBufferBatches;

	private final PromptEncoder promptEncoder;

	private SimulatorConfig(Builder builder) {
		this.modelName = Objects.requireNonNull(builder.modelName, "model name is required");
		if (this.modelName.isBlank()) {
			throw new IllegalArgumentException("model name must not be blank");
		}
		this.engineFlavor = Objects.requireNonNull(builder.engineFlavor, "engineFlavor");
		this.host = Objects.requireNonNull(builder.host, "host");
		if (builder.port < 0 || builder.port > 65535) {
			throw new IllegalArgumentException("port must be 0..65535, was " + builder.port);
		}
		this.port = builder.port;
		if (!(builder.timeScale > 0) || Double.isInfinite(builder.timeScale)) {
			throw new IllegalArgumentException("time-scale must be a positive number, was " + builder.timeScale);
		}
		this.timeScale = builder.timeScale;
		this.engine = Objects.requireNonNull(builder.engine, "engine");
		if (this.engine.loraModules().contains(this.modelName)) {
			throw new IllegalArgumentException("LoRA module '" + this.modelName + "' has the base model's name");
		}
		this.kvEventsPort = port("kv-events-port", builder.kvEventsPort);
		this.kvEventsReplayPort = port("kv-events-replay-port", builder.kvEventsReplayPort);
		if (this.kvEventsReplayPort != OFF && this.kvEventsPort == OFF) {
			throw new IllegalArgumentException("kv-events-replay-port needs kv-events-port");
		}
		this.kvEventsTopic = Objects.requireNonNull(builder.kvEventsTopic, "kvEventsTopic");
		if (builder.kvEventsBufferBatches < 1) {
			throw new IllegalArgumentException("kv-events-buffer must be at least 1, was " + builder.kvEventsBufferBatches);
		}
		this.kvEventsBufferBatches = builder.kvEventsBufferBatches;
		this.promptEncoder = Objects.requireNonNull(builder.promptEncoder, "promptEncoder");
	}

	private static int port(String name, int port) {
		if (port != OFF && (port < 0 || port > 65535)) {
			throw new IllegalArgumentException(name + " must be 0..65535, was " + port);
		}
		return port;
	}

	public static Builder builder(String modelName) {
		return new Builder(modelName);
	}

	public String modelName() {
		return this.modelName;
	}

	public EngineFlavor engineFlavor() {
		return this.engineFlavor;
	}

	public String host() {
		return this.host;
	}

	public int port() {
		return this.port;
	}

	public double timeScale() {
		return this.timeScale;
	}

	public EngineConfig engine() {
		return this.engine;
	}

	/** Whether the server publishes KV-cache events. */
	public boolean kvEventsEnabled() {
		return this.kvEventsPort != OFF;
	}

	/** The KV-event PUB socket's port (0: any free one), or {@link #OFF}. */
	public int kvEventsPort() {
		return this.kvEventsPort;
	}

	/** The replay ROUTER socket's port (0: any free one), or {@link #OFF}. */
	public int kvEventsReplayPort() {
		return this.kvEventsReplayPort;
	}

	public String kvEventsTopic() {
		return this.kvEventsTopic;
	}

	/** Batches kept for replay. */
	public int kvEventsBufferBatches() {
		return this.kvEventsBufferBatches;
	}

	/** How requests are tokenized: the stand-in, or a model's tokenizer ({@code --tokenizer}). */
	public PromptEncoder promptEncoder() {
		return this.promptEncoder;
	}

	public static final class Builder {

		private final String modelName;

		private EngineFlavor engineFlavor = EngineFlavor.VLLM;

		private String host = DEFAULT_HOST;

		private int port;

		private double timeScale = 1.0;

		private EngineConfig engine = EngineConfig.defaults();

		private int kvEventsPort = OFF;

		private int kvEventsReplayPort = OFF;

		private String kvEventsTopic = "";

		private int kvEventsBufferBatches = KvEventFrames.DEFAULT_REPLAY_BUFFER;

		private PromptEncoder promptEncoder = PromptEncoder.standIn();

		private Builder(String modelName) {
			this.modelName = modelName;
		}

		public Builder engineFlavor(EngineFlavor engineFlavor) {
			this.engineFlavor = engineFlavor;
			return this;
		}

		public Builder host(String host) {
			this.host = host;
			return this;
		}

		/** 0 binds any free port; {@link SimulatedModelServer#port()} tells which. */
		public Builder port(int port) {
			this.port = port;
			return this;
		}

		/** Engine time runs this many times faster than wall time. */
		public Builder timeScale(double timeScale) {
			this.timeScale = timeScale;
			return this;
		}

		public Builder engine(EngineConfig engine) {
			this.engine = engine;
			return this;
		}

		/** Publishes KV-cache events on this port (0: any free one; {@link #OFF}: none, the default). */
		public Builder kvEventsPort(int port) {
			this.kvEventsPort = port;
			return this;
		}

		/** Serves replay requests on this port (0: any free one; {@link #OFF}: none, the default). */
		public Builder kvEventsReplayPort(int port) {
			this.kvEventsReplayPort = port;
			return this;
		}

		/** The topic frame of every event message; empty by default, as in vLLM. */
		public Builder kvEventsTopic(String topic) {
			this.kvEventsTopic = topic;
			return this;
		}

		/** Batches kept for replay; 10,000 by default, as in vLLM. */
		public Builder kvEventsBufferBatches(int batches) {
			this.kvEventsBufferBatches = batches;
			return this;
		}

		/**
		 * Tokenizes requests with this encoder, e.g. {@code PromptEncoder.load(tokenizerDir, null)}; the stand-in by
		 * default. One encoder can serve several servers.
		 */
		public Builder promptEncoder(PromptEncoder promptEncoder) {
			this.promptEncoder = promptEncoder;
			return this;
		}

		public SimulatorConfig build() {
			return new SimulatorConfig(this);
		}
	}
}
