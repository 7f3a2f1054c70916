package io.infergate.sim.http;

import java.io.IOException;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.infergate.sim.engine.WallClockEngine;

/**
 * {@code POST /reset_prefix_cache}, vLLM's route: drops every cached prefix block and publishes
 * {@code AllBlocksCleared}. 200 with no body when done; 409 while running requests hold KV blocks (vLLM then logs a
 * warning and leaves the cache as it is).
 */
public final class ResetPrefixCacheHandler implements HttpHandler {

	public static final String PATH = "/reset_prefix_cache";

	private final WallClockEngine engine;

	public ResetPrefixCacheHandler(WallClockEngine engine) {
		this.engine = engine;
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		exchange.getRequestBody().readAllBytes();
		if (!HttpResponses.isExactly(exchange, PATH)) {
			HttpResponses.sendNotFound(exchange);
			return;
		}
		if (!"POST".equals(exchange.getRequestMethod())) {
			HttpResponses.sendMethodNotAllowed(exchange);
			return;
		}
		if (this.engine.resetPrefixCache()) {
			exchange.sendResponseHeaders(200, -1);
			exchange.close();
		}
		else {
			HttpResponses.sendError(exchange, new OpenAiError(409, "ConflictError",
					"The prefix cache cannot be reset while running requests hold KV blocks.", null));
		}
	}
}
