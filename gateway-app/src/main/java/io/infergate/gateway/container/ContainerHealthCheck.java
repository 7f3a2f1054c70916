package io.infergate.gateway.container;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The image's health check: finds the Infergate process in the container (the gateway or the simulator), derives
 * the URL of its health endpoint from that process's command line, and exits 0 when the endpoint answers 2xx, 1
 * otherwise. It uses only the JDK, so it works on any JRE base image, with or without curl or a shell.
 * <ul>
 * <li>gateway: {@code /actuator/health/liveness} on {@code --management.server.port}, else the
 * {@code MANAGEMENT_SERVER_PORT} environment variable, else {@value #DEFAULT_MANAGEMENT_PORT};</li>
 * <li>simulator ({@code model-server-sim.jar}): {@code /health} on its {@code --port}, else
 * {@value #DEFAULT_SIMULATOR_PORT}.</li>
 * </ul>
 * {@code INFERGATE_HEALTH_URL} overrides both, for a management port set only in a configuration file.
 */
public final class ContainerHealthCheck {

	static final int DEFAULT_MANAGEMENT_PORT = 8081;

	static final int DEFAULT_SIMULATOR_PORT = 8000;

	static final String SIMULATOR_JAR = "model-server-sim.jar";

	/** The gateway's jar in the image: Spring Boot's extracted layout, run with {@code java -jar}. */
	static final String GATEWAY_JAR = "gateway-app.jar";

	private static final int TIMEOUT_MILLIS = 3000;

	private ContainerHealthCheck() {
	}

	public static void main(String[] args) {
		URI health = healthUri(infergateProcessArguments(), System.getenv()).orElse(null);
		if (health == null) {
			System.err.println("healthcheck: no Infergate gateway or simulator process in this container");
			System.exit(1);
		}
		System.exit(answersOk(health) ? 0 : 1);
	}

	/**
	 * The health URL of the process with command line {@code arguments} (the JVM's arguments, without the
	 * executable), or empty when it is neither the gateway nor the simulator.
	 */
	static Optional<URI> healthUri(List<String> arguments, Map<String, String> environment) {
		String override = environment.get("INFERGATE_HEALTH_URL");
		if (override != null && !override.isBlank()) {
			return Optional.of(URI.create(override.trim()));
		}
		if (arguments.stream().anyMatch((arg) -> arg.endsWith(SIMULATOR_JAR))) {
			int port = option(arguments, "--port").map(Integer::parseInt).orElse(DEFAULT_SIMULATOR_PORT);
			return Optional.of(URI.create("http://127.0.0.1:" + port + "/health"));
		}
		if (isGateway(arguments)) {
			int port = option(arguments, "--management.server.port")
				.or(() -> Optional.ofNullable(environment.get("MANAGEMENT_SERVER_PORT")))
				.map(Integer::parseInt)
				.orElse(DEFAULT_MANAGEMENT_PORT);
			return Optional.of(URI.create("http://127.0.0.1:" + port + "/actuator/health/liveness"));
		}
		return Optional.empty();
	}

	/** Whether a JVM with these arguments runs the gateway's jar ({@code -jar .../gateway-app.jar}). */
	private static boolean isGateway(List<String> arguments) {
		int jar = arguments.indexOf("-jar");
		if (jar < 0 || jar + 1 >= arguments.size()) {
			return false;
		}
		String path = arguments.get(jar + 1);
		return path.equals(GATEWAY_JAR) || path.endsWith("/" + GATEWAY_JAR);
	}

	/** The value of {@code --name value} or {@code --name=value}; the last one wins, as in both programs. */
	static Optional<String> option(List<String> arguments, String name) {
		String value = null;
		for (int i = 0; i < arguments.size(); i++) {
			String arg = arguments.get(i);
			if (arg.equals(name) && i + 1 < arguments.size()) {
				value = arguments.get(i + 1);
			}
			else if (arg.startsWith(name + "=")) {
				value = arg.substring(name.length() + 1);
			}
		}
		return Optional.ofNullable(value);
	}

	/** The arguments of the first other Java process that is the gateway or the simulator. */
	private static List<String> infergateProcessArguments() {
		long self = ProcessHandle.current().pid();
		return ProcessHandle.allProcesses()
			.filter((process) -> process.pid() != self)
			.map((process) -> process.info().arguments().map(List::of).orElse(List.of()))
			.filter((arguments) -> isGateway(arguments)
					|| arguments.stream().anyMatch((arg) -> arg.endsWith(SIMULATOR_JAR)))
			.findFirst()
			.orElse(List.of());
	}

	private static boolean answersOk(URI health) {
		try {
			HttpURLConnection connection = (HttpURLConnection) health.toURL().openConnection();
			connection.setConnectTimeout(TIMEOUT_MILLIS);
			connection.setReadTimeout(TIMEOUT_MILLIS);
			int status = connection.getResponseCode();
			connection.disconnect();
			return status >= 200 && status < 300;
		}
		catch (IOException ex) {
			System.err.println("healthcheck: " + health + ": " + ex);
			return false;
		}
	}
}
