package io.infergate.gateway.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A relay in front of a simulated pod that records the headers and body of every generation request it passes on:
 * what a model server receives from the gateway, which the simulator does not expose.
 */
public final class RecordingRelay implements AutoCloseable {

	private static final Set<String> NOT_RELAYED = Set.of("connection", "content-length", "host", "transfer-encoding",
			"upgrade", "expect");

	private final HttpServer server;

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final String target;

	private final List<Map<String, List<String>>> generationHeaders = new CopyOnWriteArrayList<>();

	private final List<String> generationBodies = new CopyOnWriteArrayList<>();

	public RecordingRelay(String targetBaseUrl) {
		this.target = targetBaseUrl;
		try {
			server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		server.setExecutor(Executors.newCachedThreadPool());
		server.createContext("/", this::relay);
		server.start();
	}

	public String baseUrl() {
		return "http://127.0.0.1:" + server.getAddress().getPort();
	}

	/** The headers of each generation request relayed so far, names in lower case. */
	public List<Map<String, List<String>>> generationHeaders() {
		return List.copyOf(generationHeaders);
	}

	/** The body of each generation request relayed so far, as UTF-8. */
	public List<String> generationBodies() {
		return List.copyOf(generationBodies);
	}

	private void relay(HttpExchange exchange) throws IOException {
		try (exchange) {
			byte[] body = exchange.getRequestBody().readAllBytes();
			if (exchange.getRequestURI().getPath().startsWith("/v1/") && "POST".equals(exchange.getRequestMethod())) {
				Map<String, List<String>> headers = new java.util.TreeMap<>();
				exchange.getRequestHeaders()
					.forEach((name, values) -> headers.put(name.toLowerCase(java.util.Locale.ROOT), values));
				generationHeaders.add(headers);
				generationBodies.add(new String(body, java.nio.charset.StandardCharsets.UTF_8));
			}
			HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
				.method(exchange.getRequestMethod(), (body.length == 0) ? HttpRequest.BodyPublishers.noBody()
						: HttpRequest.BodyPublishers.ofByteArray(body));
			exchange.getRequestHeaders().forEach((name, values) -> {
				if (!NOT_RELAYED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
					values.forEach((value) -> request.header(name, value));
				}
			});
			HttpResponse<InputStream> response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
			Headers out = exchange.getResponseHeaders();
			response.headers().map().forEach((name, values) -> {
				if (!NOT_RELAYED.contains(name.toLowerCase(java.util.Locale.ROOT)) && !name.startsWith(":")) {
					out.put(name, values);
				}
			});
			exchange.sendResponseHeaders(response.statusCode(), 0);
			try (InputStream in = response.body(); OutputStream os = exchange.getResponseBody()) {
				byte[] buffer = new byte[8192];
				int read;
				while ((read = in.read(buffer)) >= 0) {
					os.write(buffer, 0, read);
					os.flush();
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		server.stop(0);
	}
}
