package io.infergate.gateway.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.WeakHashMap;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import io.infergate.routing.pool.PoolProperties;

/**
 * Demo mode: when no pool is configured anywhere, configures pool {@value #POOL} on {@value #POD_COUNT} free
 * loopback ports, with models {@value #BASE_MODEL} and {@value #LORA_MODEL} (a LoRA adapter of the base model),
 * for {@link DemoPods} to serve with simulated vLLM pods. {@code infergate.demo.enabled=false} turns it off.
 */
public class DemoModeEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	public static final String POOL = "demo";

	public static final String BASE_MODEL = "demo-llama";

	public static final String LORA_MODEL = "demo-lora";

	public static final int POD_COUNT = 4;

	static final String ACTIVE_PROPERTY = "infergate.demo.active";

	static final String PORTS_PROPERTY = "infergate.demo.ports";

	/**
	 * The ports chosen for each application: Spring Cloud's refresh (a configuration reload) post-processes a copy
	 * of the environment again, and must find the pods where they are.
	 */
	private static final Map<SpringApplication, int[]> PORTS = Collections.synchronizedMap(new WeakHashMap<>());

	@Override
	public int getOrder() {
		// after the application's own configuration has been loaded
		return Ordered.LOWEST_PRECEDENCE - 50;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Binder binder = Binder.get(environment);
		boolean enabled = binder.bind("infergate.demo.enabled", Boolean.class).orElse(true);
		boolean poolsConfigured = !PoolProperties.configuredPools(binder).isEmpty();
		if (!enabled || poolsConfigured) {
			return;
		}
		Map<String, Object> demo = new LinkedHashMap<>();
		StringJoiner ports = new StringJoiner(",");
		int[] chosen = (application != null) ? PORTS.computeIfAbsent(application, (app) -> freeLoopbackPorts())
				: freeLoopbackPorts();
		for (int i = 0; i < POD_COUNT; i++) {
			int port = chosen[i];
			ports.add(Integer.toString(port));
			demo.put("infergate.pools." + POOL + ".endpoints[" + i + "]", "http://127.0.0.1:" + port);
		}
		// the demo pods tokenize as the simulator does, so their token counts are exact and every profile runs
		demo.put("infergate.pools." + POOL + ".tokenizer.type", "simulator");
		demo.put(ACTIVE_PROPERTY, true);
		demo.put(PORTS_PROPERTY, ports.toString());
		demo.put("infergate.models." + BASE_MODEL + ".pool", POOL);
		demo.put("infergate.models." + BASE_MODEL + ".target-model", BASE_MODEL);
		demo.put("infergate.models." + LORA_MODEL + ".pool", POOL);
		demo.put("infergate.models." + LORA_MODEL + ".target-model", BASE_MODEL);
		demo.put("infergate.models." + LORA_MODEL + ".adapter", LORA_MODEL);
		environment.getPropertySources().addLast(new MapPropertySource("infergate-demo-mode", demo));
	}

	private static int[] freeLoopbackPorts() {
		int[] ports = new int[POD_COUNT];
		for (int i = 0; i < POD_COUNT; i++) {
			ports[i] = freeLoopbackPort();
		}
		return ports;
	}

	private static int freeLoopbackPort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("no free loopback port for a demo pod", ex);
		}
	}
}
