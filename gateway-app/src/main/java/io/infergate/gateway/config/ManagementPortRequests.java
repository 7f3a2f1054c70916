package io.infergate.gateway.config;

import java.net.InetSocketAddress;

import org.springframework.core.env.Environment;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * Matches requests that arrived on the management port while it is apart from the API's. The management server's
 * context also serves the application's routes, so an API route that must stay off the management port is
 * guarded with {@code apiRoute.and(managementPortRequests.negate())}.
 * <p>
 * The port is the one the management server listens on ({@code local.management.port}), so a random port
 * ({@code management.server.port=0}) works too.
 */
public final class ManagementPortRequests implements RequestPredicate {

	private static final String LOCAL_MANAGEMENT_PORT = "local.management.port";

	private final Environment environment;

	private volatile int port = -1;

	public ManagementPortRequests(Environment environment) {
		this.environment = environment;
	}

	@Override
	public boolean test(ServerRequest request) {
		InetSocketAddress local = request.exchange().getRequest().getLocalAddress();
		return local != null && local.getPort() == port();
	}

	private int port() {
		int known = port;
		if (known < 0) {
			Integer listening = environment.getProperty(LOCAL_MANAGEMENT_PORT, Integer.class);
			if (listening == null) {
				return -1;
			}
			known = listening;
			port = known;
		}
		return known;
	}
}
