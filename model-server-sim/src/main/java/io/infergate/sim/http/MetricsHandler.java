package io.infergate.sim.http;

import java.io.IOException;
import java.io.InterruptedIOException;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.infergate.sim.engine.WallClockEngine;
import io.infergate.sim.fault.FaultInjector;
import io.infergate.sim.metrics.EngineFlavor;
import io.infergate.sim.metrics.PrometheusExposition;

/** {@code GET /metrics}: the engine's figures in Prometheus text format, unless a stall fault holds it. */
public final class MetricsHandler implements HttpHandler {

	private final EngineFlavor flavor;

	private final String modelName;

	private final WallClockEngine engine;

	private final FaultInjector faults;

	public MetricsHandler(EngineFlavor flavor, String modelName, WallClockEngine engine, FaultInjector faults) {
		this.flavor = flavor;
		this.modelName = modelName;
		this.engine = engine;
		this.faults = faults;
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		if (!HttpResponses.isExactly(exchange, exchange.getHttpContext().getPath())) {
			HttpResponses.sendNotFound(exchange);
			return;
		}
		if (!"GET".equals(exchange.getRequestMethod())) {
			HttpResponses.sendMethodNotAllowed(exchange);
			return;
		}
		try {
			this.faults.awaitMetricsRelease();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new InterruptedIOException("simulator closing");
		}
		HttpResponses.send(exchange, 200, PrometheusExposition.CONTENT_TYPE,
				PrometheusExposition.render(this.flavor, this.modelName, this.engine.metrics()));
	}
}
