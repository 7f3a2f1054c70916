package io.infergate.gateway.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.InfergateGatewayApplication;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointRegistry;

import static org.awaitility.Awaitility.await;

/** Whole gateways started in the test's JVM, for tests that run several at once or restart their configuration. */
public final class GatewayContexts {

	private static final Duration READY = Duration.ofSeconds(30);

	private GatewayContexts() {
	}

	/**
	 * A gateway on random API and management ports, demo mode off, with {@code arguments} (Spring properties as
	 * {@code --name=value}); returns once every endpoint of every pool is ready.
	 */
	public static ConfigurableApplicationContext start(String... arguments) {
		List<String> all = new ArrayList<>(List.of("--server.port=0", "--management.server.port=0",
				"--infergate.demo.enabled=false", "--spring.main.banner-mode=off"));
		all.addAll(List.of(arguments));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(InfergateGatewayApplication.class)
			.run(all.toArray(String[]::new));
		EndpointRegistry registry = context.getBean(EndpointRegistry.class);
		await().atMost(READY).until(() -> registry.pools().stream()
			.allMatch((pool) -> pool.endpoints().stream().allMatch(Endpoint::isReady)));
		return context;
	}

	/** {@code path} on the gateway's API port. */
	public static String url(ConfigurableApplicationContext gateway, String path) {
		return "http://127.0.0.1:" + gateway.getEnvironment().getProperty("local.server.port") + path;
	}

	/** {@code path} on the gateway's management port. */
	public static String managementUrl(ConfigurableApplicationContext gateway, String path) {
		return "http://127.0.0.1:" + gateway.getEnvironment().getProperty("local.management.port") + path;
	}
}
