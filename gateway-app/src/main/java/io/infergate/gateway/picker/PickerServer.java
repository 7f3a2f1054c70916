package io.infergate.gateway.picker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * The picker's gRPC servers: ext_proc on {@code infergate.endpoint-picker.port}, and gRPC health on
 * {@code health-port} (services {@code liveness}, {@code readiness} and the processor's own name; the empty name
 * too), SERVING while the application runs, NOT_SERVING from the moment it stops.
 */
public class PickerServer implements SmartLifecycle {

	/** Services the health endpoint answers for, besides the processor's own name and the server as a whole. */
	public static final String LIVENESS = "liveness";

	public static final String READINESS = "readiness";

	/** After the pools' endpoints are known, as the HTTP server. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024;

	private static final Log logger = LogFactory.getLog(PickerServer.class);

	private final EndpointPicker picker;

	private final EndpointPickerProperties properties;

	private final HealthStatusManager health = new HealthStatusManager();

	private volatile Server server;

	private volatile Server healthServer;

	public PickerServer(EndpointPicker picker, EndpointPickerProperties properties) {
		this.picker = picker;
		this.properties = properties;
	}

	@Override
	public synchronized void start() {
		try {
			NettyServerBuilder builder = NettyServerBuilder.forPort(properties.port()).addService(picker);
			if (properties.directExecutor()) {
				builder.directExecutor();
			}
			boolean ownHealthPort = properties.healthPort() > 0 && properties.healthPort() != properties.port();
			if (!ownHealthPort) {
				builder.addService(health.getHealthService());
			}
			server = builder.build().start();
			if (ownHealthPort) {
				healthServer = NettyServerBuilder.forPort(properties.healthPort())
					.addService(health.getHealthService())
					.build()
					.start();
			}
		}
		catch (IOException ex) {
			stopServers();
			throw new UncheckedIOException("The endpoint picker could not listen on port " + properties.port()
					+ " (infergate.endpoint-picker.port) or " + properties.healthPort()
					+ " (infergate.endpoint-picker.health-port): " + ex.getMessage(), ex);
		}
		for (String service : new String[] { "", LIVENESS, READINESS, ExternalProcessorGrpc.SERVICE_NAME }) {
			health.setStatus(service, ServingStatus.SERVING);
		}
		logger.info("Endpoint picker (ext_proc) on port " + port() + ", gRPC health on port " + healthPort());
	}

	@Override
	public synchronized void stop() {
		health.setStatus(READINESS, ServingStatus.NOT_SERVING);
		health.enterTerminalState();
		stopServers();
	}

	private void stopServers() {
		for (Server each : new Server[] { server, healthServer }) {
			if (each != null) {
				each.shutdown();
				try {
					if (!each.awaitTermination(5, TimeUnit.SECONDS)) {
						each.shutdownNow();
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					each.shutdownNow();
				}
			}
		}
		server = null;
		healthServer = null;
	}

	@Override
	public boolean isRunning() {
		return server != null;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/** The ext_proc port listened on (the one chosen when configured as 0), or -1 when not running. */
	public int port() {
		Server running = server;
		return (running != null) ? running.getPort() : -1;
	}

	/** The gRPC health port listened on, or -1 when not running. */
	public int healthPort() {
		Server running = (healthServer != null) ? healthServer : server;
		return (running != null) ? running.getPort() : -1;
	}
}
