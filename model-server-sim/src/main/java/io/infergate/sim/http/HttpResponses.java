package io.infergate.sim.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;

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

	/** Whether the request is for exactly {@code path}; contexts also match longer paths. */
	static boolean isExactly(HttpExchange exchange, String path) {
		String requested = exchange.getRequestURI().getPath();
		return requested.equals(path) || requested.equals(path + "/");
	}
}
