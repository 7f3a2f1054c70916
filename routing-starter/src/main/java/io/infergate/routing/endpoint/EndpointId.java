package io.infergate.routing.endpoint;

import java.net.URI;
import java.util.Objects;

/**
 * Identity of one model-server replica: its host and port, printed as {@code host:port}. This is the id
 * shown in {@code x-infergate-endpoint}, in {@code /actuator/inference} and in decision records.
 */
public record EndpointId(String host, int port) implements Comparable<EndpointId> {

	public EndpointId {
		Objects.requireNonNull(host, "host");
		if (port < 1 || port > 65535) {
			throw new IllegalArgumentException("port out of range: " + port);
		}
	}

	/** Parses {@code host:port}. */
	public static EndpointId parse(String hostPort) {
		int colon = hostPort.lastIndexOf(':');
		if (colon <= 0 || colon == hostPort.length() - 1) {
			throw new IllegalArgumentException("expected host:port, got '" + hostPort + "'");
		}
		return new EndpointId(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
	}

	/** The id of a base URI such as {@code http://10.0.0.5:8000}; the scheme's default port when none is given. */
	public static EndpointId of(URI baseUri) {
		int port = baseUri.getPort();
		if (port < 0) {
			port = "https".equalsIgnoreCase(baseUri.getScheme()) ? 443 : 80;
		}
		return new EndpointId(baseUri.getHost(), port);
	}

	@Override
	public int compareTo(EndpointId other) {
		int byHost = host.compareTo(other.host);
		return byHost != 0 ? byHost : Integer.compare(port, other.port);
	}

	@Override
	public String toString() {
		return host + ":" + port;
	}
}
