package io.infergate.gateway.connection;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Limits on client connections to the API port, {@code infergate.gateway.client.*}. None of them applies while a
 * response is being sent, so a long stream is never cut.
 *
 * @param headerTimeout Longest wait for a complete request head (request line and headers): from the connection's
 * opening, or from the end of the previous response on a kept-alive connection. Past it the connection is closed.
 * Like nginx's {@code client_header_timeout} (60 s) and {@code keepalive_timeout} (75 s), shorter since API clients
 * send their request at once.
 * @param bodyTimeout Longest time to receive a request's whole body once its head has arrived; past it the
 * connection is closed.
 * @param maxConnections Most client connections open at once; a connection beyond it is closed as soon as it opens.
 */
@Validated
@ConfigurationProperties("infergate.gateway.client")
public record ClientConnectionProperties(@DefaultValue("30s") @NotNull Duration headerTimeout,
		@DefaultValue("60s") @NotNull Duration bodyTimeout, @DefaultValue("10000") @Min(1) int maxConnections) {
}
