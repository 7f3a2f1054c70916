package io.infergate.gateway.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** Blocking HTTP calls for black-box tests against a running gateway or simulator. */
public final class Http {

	/** The management port's admin, as {@code config/application.properties} of the tests configures it. */
	public static final String ADMIN = "admin";

	/** The password whose hash the tests configure. */
	public static final String ADMIN_PASSWORD = "dashboard-test-password";

	private static final HttpClient CLIENT = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private Http() {
	}

	public static HttpClient client() {
		return CLIENT;
	}

	public static HttpResponse<String> get(String url) {
		return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build());
	}

	/** A GET with the management port's admin credentials. */
	public static HttpResponse<String> getAsAdmin(String url) {
		return send(HttpRequest.newBuilder(URI.create(url))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", basic(ADMIN, ADMIN_PASSWORD))
			.GET()
			.build());
	}

	/** An {@code Authorization} header value for HTTP Basic. */
	public static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	public static HttpResponse<String> postJson(String url, String json) {
		return send(HttpRequest.newBuilder(URI.create(url))
			.timeout(Duration.ofSeconds(60))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build());
	}

	public static HttpResponse<String> send(HttpRequest request) {
		try {
			return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (HttpTimeoutException ex) {
			// The gateway under test runs in this JVM: what its threads were doing says why it did not answer.
			throw new UncheckedIOException(request.method() + " " + request.uri() + " got no answer in "
					+ request.timeout().orElse(null) + "; the threads of this JVM:\n" + threadDump(), ex);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** A chat completion body with one user message. */
	public static String chat(String model, String content, boolean stream, int maxTokens) {
		return "{\"model\":\"" + model + "\",\"stream\":" + stream + ",\"max_tokens\":" + maxTokens
				+ ",\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"}]}";
	}

	private static String threadDump() {
		StringBuilder dump = new StringBuilder();
		for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
			dump.append('"').append(thread.getThreadName()).append("\" ").append(thread.getThreadState());
			if (thread.getLockName() != null) {
				dump.append(" on ").append(thread.getLockName());
			}
			dump.append('\n');
			for (StackTraceElement frame : thread.getStackTrace()) {
				dump.append("\tat ").append(frame).append('\n');
			}
		}
		return dump.toString();
	}
}
