package io.infergate.systemtest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged gateway jar in demo mode on two free ports, with a known admin password, started for a test class
 * and stopped after it. Its output goes to {@code target/<name>-gateway.log}.
 */
final class GatewayProcess implements AutoCloseable {

	static final String ADMIN = "admin";

	static final String PASSWORD = "dashboard-test-password";

	/** {@code printf %s dashboard-test-password | java -jar gateway-app.jar hash-password} */
	static final String PASSWORD_HASH = "{bcrypt}$2a$10$V8b7UahWrY41mT.9HBsGMeGOtkIA0JF/MueNMoyxKbIKZlBGNhB5y";

	private static final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final Process process;

	private final Path log;

	final int apiPort;

	final int managementPort;

	private GatewayProcess(Process process, Path log, int apiPort, int managementPort) {
		this.process = process;
		this.log = log;
		this.apiPort = apiPort;
		this.managementPort = managementPort;
	}

	/**
	 * Starts the jar on two free ports. A port found free can be taken before the gateway binds it (its demo pods
	 * pick free ports too), so a start that fails on a port in use is tried again on other ports.
	 */
	static GatewayProcess start(String name, String... extraArguments) throws IOException, InterruptedException {
		Path jar = Path.of(System.getProperty("gateway.jar", "../../gateway-app/target/gateway-app.jar"));
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("no gateway jar at " + jar.toAbsolutePath() + "; package gateway-app first");
		}
		Path log = Path.of("target", name + "-gateway.log");
		Files.createDirectories(log.getParent());
		for (int attempt = 1;; attempt++) {
			int apiPort = freePort();
			int managementPort = freePort();
			List<String> command = new ArrayList<>(List.of(javaExecutable(), "-jar", jar.toString(),
					"--server.port=" + apiPort, "--management.server.port=" + managementPort,
					"--infergate.management.admin.password-hash=" + PASSWORD_HASH));
			command.addAll(List.of(extraArguments));
			Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
			GatewayProcess gateway = new GatewayProcess(process, log, apiPort, managementPort);
			try {
				gateway.awaitReadiness(Duration.ofSeconds(120));
				return gateway;
			}
			catch (IllegalStateException ex) {
				gateway.close();
				if (attempt == 3 || !gateway.output().contains("already in use")) {
					throw ex;
				}
			}
		}
	}

	String api(String path) {
		return "http://127.0.0.1:" + apiPort + path;
	}

	String management(String path) {
		return "http://127.0.0.1:" + managementPort + path;
	}

	static String basicCredentials() {
		return "Basic " + Base64.getEncoder().encodeToString((ADMIN + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
	}

	static HttpResponse<String> get(String url, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET();
		if (headers.length > 0) {
			request.headers(headers);
		}
		return send(request.build());
	}

	static HttpResponse<String> getAsAdmin(String url) {
		return get(url, "Authorization", basicCredentials());
	}

	static HttpResponse<String> postJson(String url, String json) {
		return send(HttpRequest.newBuilder(URI.create(url))
			.timeout(Duration.ofSeconds(60))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build());
	}

	static HttpClient client() {
		return http;
	}

	private static HttpResponse<String> send(HttpRequest request) {
		try {
			return http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	String output() {
		try {
			return Files.readString(log);
		}
		catch (IOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

	private void awaitReadiness(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!process.isAlive()) {
				throw new IllegalStateException("gateway exited with " + process.exitValue() + ":\n" + output());
			}
			try {
				if (get(management("/actuator/health/readiness")).statusCode() == 200) {
					return;
				}
			}
			catch (UncheckedIOException notListeningYet) {
				// starting
			}
			Thread.sleep(250);
		}
		throw new IllegalStateException("gateway not ready after " + timeout + ":\n" + output());
	}

	@Override
	public void close() throws InterruptedException {
		process.destroy();
		if (!process.waitFor(30, TimeUnit.SECONDS)) {
			process.destroyForcibly().waitFor();
		}
	}

	private static String javaExecutable() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}
}
