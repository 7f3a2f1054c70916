package io.infergate.sim.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;
import io.infergate.sim.fault.FaultInjector;

/** Writing whole responses, and the OpenAI-shaped errors every endpoint answers with. */
final class HttpResponses {

	static final String APPLICATION_JSON = "application/json";

	private HttpResponses() {
	}

	static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", contentType);
		exchange.sendResponseHeaders(status, (bytes.length == 0) ? -1 : bytes.length);
		if (bytes.length > 0) {
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		}
		exchange.close();
	}

	static void sendJson(HttpExchange exchange, int status, String json) throws IOException {
		send(exchange, status, APPLICATION_JSON, json);
	}

	static void sendError(HttpExchange exchange, OpenAiError error) throws IOException {
		sendJson(exchange, error.status(), error.toJson());
	}

	static void sendMethodNotAllowed(HttpExchange exchange) throws IOException {
		sendError(exchange, new OpenAiError(405, "MethodNotAllowed",
				"Method " + exchange.getRequestMethod() + " is not allowed for " + exchange.getRequestURI().getPath()
						+ ".", null));
	}

	static void sendNotFound(HttpExchange exchange) throws IOException {
		sendError(exchange, new OpenAiError(404, "NotFoundError", "Not found: " + exchange.getRequestURI().getPath(),
				null));
	}

	/**
	 * The body of a {@code POST} to exactly {@code path}, or {@code null} once anything else has been answered 404
	 * or 405.
	 */
	static byte[] postBody(HttpExchange exchange, String path) throws IOException {
		if (!isExactly(exchange, path)) {
			sendNotFound(exchange);
			return null;
		}
		if (!"POST".equals(exchange.getRequestMethod())) {
			sendMethodNotAllowed(exchange);
			return null;
		}
		return exchange.getRequestBody().readAllBytes();
	}

	/**
	 * Answers with the injected failure when one is due, resets the connection when resets are injected, or holds
	 * the request while generations are frozen; whether it answered.
	 * @throws IOException after resetting the connection, so that the server drops the exchange
	 */
	static boolean answeredByFault(HttpExchange exchange, FaultInjector faults) throws IOException {
		if (faults.resetsConnections()) {
			ConnectionReset.reset(exchange);
			throw new IOException("connection reset by injected fault");
		}
		try {
			faults.awaitUnfrozen();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new InterruptedIOException("simulator closing");
		}
		int failStatus = faults.takeGenerationFailure();
		if (failStatus == 0) {
			return false;
		}
		sendError(exchange, OpenAiError.injected(failStatus));
		return true;
	}

	/** Whether the request is for exactly {@code path}; contexts also match longer paths. */
	static boolean isExactly(HttpExchange exchange, String path) {
		String requested = exchange.getRequestURI().getPath();
		return requested.equals(path) || requested.equals(path + "/");
	}
}
