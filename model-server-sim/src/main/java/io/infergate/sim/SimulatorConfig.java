package io.infergate.sim;

import java.util.Objects;

import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.metrics.EngineFlavor;

/**
 * How to run one simulated model server: the served model name, the engine whose metric names to expose, where to
 * listen, how fast to run, and the engine parameters. Defaults: vLLM names, loopback, port 0 (any free port), time
 * scale 1 (real time).
 */
public final class SimulatorConfig {

	public static final String DEFAULT_HOST = "127.0.0.1";

	private final String modelName;

	private final EngineFlavor engineFlavor;

	private final String host;

	private final int port;

	private final double timeScale;

	private final EngineConfig engine;

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

	public static final class Builder {

		private final String modelName;

		private EngineFlavor engineFlavor = EngineFlavor.VLLM;

		private String host = DEFAULT_HOST;

		private int port;

		private double timeScale = 1.0;

		private EngineConfig engine = EngineConfig.defaults();

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

		public SimulatorConfig build() {
			return new SimulatorConfig(this);
		}
	}
}
