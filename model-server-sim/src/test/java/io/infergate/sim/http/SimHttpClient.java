package io.infergate.sim.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.infergate.sim.SimulatedModelServer;
import tools.jackson.databind.JsonNode;

/** A plain HTTP/1.1 client for a simulator under test, with helpers to build bodies and read metrics. */
final class SimHttpClient {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final String baseUrl;

	SimHttpClient(SimulatedModelServer server) {
		this.baseUrl = server.baseUrl();
	}

	static String chatBody(String model, String content, int maxTokens, boolean stream) {
		return Json.MAPPER.writeValueAsString(Map.of("model", model, "max_tokens", maxTokens, "stream", stream,
				"messages", List.of(Map.of("role", "user", "content", content))));
	}

	HttpResponse<String> post(String path, String body) {
		return send(request(path).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	HttpResponse<String> get(String path) {
		return send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	HttpResponse<String> delete(String path) {
		return send(request(path).DELETE().build(), HttpResponse.BodyHandlers.ofString());
	}

	/** Sends a POST and returns as soon as the headers arrived; the body is read line by line. */
	HttpResponse<Stream<String>> postForLines(String path, String body) {
		return send(request(path).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
				HttpResponse.BodyHandlers.ofLines());
	}

	HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create(this.baseUrl + path))
			.timeout(TIMEOUT)
			.header("Content-Type", "application/json");
	}

	HttpResponse<String> send(HttpRequest request) {
		return send(request, HttpResponse.BodyHandlers.ofString());
	}

	HttpClient client() {
		return this.client;
	}

	<T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
		try {
			return this.client.send(request, handler);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static JsonNode json(String body) {
		return Json.MAPPER.readTree(body);
	}

	/** The value of the first sample of {@code name} in the current {@code /metrics}. */
	double metric(String name) {
		return sampleValue(get("/metrics").body(), name);
	}

	static double sampleValue(String exposition, String name) {
		for (String line : exposition.split("\n")) {
			if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
				return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		throw new AssertionError("no sample " + name + " in:\n" + exposition);
	}

	/** The value of label {@code label} on the first sample of {@code name}. */
	String metricLabel(String name, String label) {
		String exposition = get("/metrics").body();
		for (String line : exposition.split("\n")) {
			if (line.startsWith(name + "{")) {
				Matcher matcher = Pattern.compile("[{,]" + label + "=\"([^\"]*)\"").matcher(line);
				if (matcher.find()) {
					return matcher.group(1);
				}
			}
		}
		throw new AssertionError("no label " + label + " on " + name + " in:\n" + exposition);
	}
}
