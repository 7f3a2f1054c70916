package io.infergate.gateway.demo;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

import io.infergate.routing.discovery.PoolEndpointSynchronizer;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;

/**
 * The simulated vLLM pods of demo mode, started on the ports {@link DemoModeEnvironmentPostProcessor} chose,
 * before the pool's endpoints are synchronized and scraped, and stopped with the application. They leave the pool
 * before they stop, as pods leaving a discovered pool do, so the scrapers (closed only when the context is
 * destroyed, after every lifecycle phase) stop scraping them instead of reporting them dead.
 */
public class DemoPods implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(DemoPods.class);

	private final List<Integer> ports;

	private final EndpointRegistry registry;

	private final List<SimulatedModelServer> pods = new ArrayList<>();

	public DemoPods(List<Integer> ports, EndpointRegistry registry) {
		this.ports = List.copyOf(ports);
		this.registry = registry;
	}

	@Override
	public synchronized void start() {
		EngineConfig engine = EngineConfig.builder()
			.loraModules(List.of(DemoModeEnvironmentPostProcessor.LORA_MODEL))
			.maxLoras(1)
			.build();
		for (int port : ports) {
			SimulatorConfig config = SimulatorConfig.builder(DemoModeEnvironmentPostProcessor.BASE_MODEL)
				.port(port)
				.engine(engine)
				.build();
			pods.add(new SimulatedModelServer(config).start());
		}
		logger.info("Demo mode: no pool is configured (infergate.pools is empty), so Infergate started "
				+ pods.size() + " simulated vLLM pods on " + pods.stream().map(SimulatedModelServer::baseUrl).toList()
				+ " as pool '" + DemoModeEnvironmentPostProcessor.POOL + "', serving model '"
				+ DemoModeEnvironmentPostProcessor.BASE_MODEL + "' and its LoRA adapter '"
				+ DemoModeEnvironmentPostProcessor.LORA_MODEL + "'. To route to real model servers, configure "
				+ "infergate.pools.<name>.endpoints (for example --infergate.pools.llama.endpoints=http://10.0.0.5:8000) "
				+ "and infergate.models; see the README.");
	}

	@Override
	public synchronized void stop() {
		// the endpoint synchronizer (a higher phase) has stopped already and does not put them back
		if (this.registry.pool(DemoModeEnvironmentPostProcessor.POOL) != null) {
			this.registry.sync(DemoModeEnvironmentPostProcessor.POOL, List.of());
		}
		for (SimulatedModelServer pod : pods) {
			pod.close();
		}
		pods.clear();
	}

	@Override
	public synchronized boolean isRunning() {
		return !pods.isEmpty();
	}

	@Override
	public int getPhase() {
		return PoolEndpointSynchronizer.PHASE - 1024;
	}
}
