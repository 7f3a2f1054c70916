package io.infergate.sim.http;

import java.io.IOException;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

/** {@code GET /health} answers 200 with no body, as vLLM does; any other unknown path gets a JSON 404. */
public final class FallbackHandler implements HttpHandler {

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		exchange.getRequestBody().readAllBytes();
		if (HttpResponses.isExactly(exchange, "/health")) {
			exchange.sendResponseHeaders(200, -1);
			exchange.close();
		}
		else {
			HttpResponses.sendNotFound(exchange);
		}
	}
}
