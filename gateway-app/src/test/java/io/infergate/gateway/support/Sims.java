package io.infergate.gateway.support;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.metrics.EngineFlavor;

/** Simulated vLLM pods on loopback, started for a test class and closed after it. */
public final class Sims implements AutoCloseable {

	private final List<SimulatedModelServer> servers = new ArrayList<>();

	public SimulatedModelServer start(String model, PerfProfile profile, Consumer<EngineConfig.Builder> engine) {
		return start(model, EngineFlavor.VLLM, profile, engine);
	}

	public SimulatedModelServer start(String model, EngineFlavor flavor, PerfProfile profile,
			Consumer<EngineConfig.Builder> engine) {
		EngineConfig.Builder builder = EngineConfig.builder().perfProfile(profile);
		engine.accept(builder);
		SimulatedModelServer server = new SimulatedModelServer(
				SimulatorConfig.builder(model).engineFlavor(flavor).engine(builder.build()).build()).start();
		servers.add(server);
		return server;
	}

	/** A pod with its own configuration, e.g. on another loopback address. */
	public SimulatedModelServer start(SimulatorConfig config) {
		SimulatedModelServer server = new SimulatedModelServer(config).start();
		servers.add(server);
		return server;
	}

	public SimulatedModelServer start(String model) {
		return start(model, PerfProfile.LLAMA_3_1_8B_H100, (engine) -> {
		});
	}

	/** {@code [url1,url2]} for a property value. */
	public static String urls(SimulatedModelServer... servers) {
		List<String> urls = new ArrayList<>();
		for (SimulatedModelServer server : servers) {
			urls.add(server.baseUrl());
		}
		return String.join(",", urls);
	}

	public static String id(SimulatedModelServer server) {
		return "127.0.0.1:" + server.port();
	}

	@Override
	public void close() {
		servers.forEach(SimulatedModelServer::close);
		servers.clear();
	}
}
