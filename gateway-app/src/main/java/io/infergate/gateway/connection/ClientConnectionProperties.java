package io.infergate.gateway.connection;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Limits on client connections to the API port, {@code infergate.gateway.client.*}. None of them applies while a
 * response is being sent, so a long stream is never cut.
 */
@Validated
@ConfigurationProperties("infergate.gateway.client")
public class ClientConnectionProperties {

	/**
	 * Longest wait for a complete request head (request line and headers): from the connection's opening, or from
	 * the end of the previous response on a kept-alive connection. Past it the connection is closed. Like nginx's
	 * {@code client_header_timeout} (60 s) and {@code keepalive_timeout} (75 s), shorter since API clients send their
	 * request at once.
	 */
	@NotNull
	private Duration headerTimeout = Duration.ofSeconds(30);

	/** Longest time to receive a request's whole body once its head has arrived; past it the connection is closed. */
	@NotNull
	private Duration bodyTimeout = Duration.ofSeconds(60);

	/** Most client connections open at once; a connection beyond it is closed as soon as it opens. */
	@Min(1)
	private int maxConnections = 10_000;

	public Duration getHeaderTimeout() {
		return headerTimeout;
	}

	public void setHeaderTimeout(Duration headerTimeout) {
		this.headerTimeout = headerTimeout;
	}

	public Duration getBodyTimeout() {
		return bodyTimeout;
	}

	public void setBodyTimeout(Duration bodyTimeout) {
		this.bodyTimeout = bodyTimeout;
	}

	public int getMaxConnections() {
		return maxConnections;
	}

	public void setMaxConnections(int maxConnections) {
		this.maxConnections = maxConnections;
	}
}
