package io.infergate.gateway.picker;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The Endpoint Picker, {@code infergate.endpoint-picker.*}: Envoy's external processing service, which Envoy-based
 * gateways ask where each request to an {@code InferencePool} goes.
 *
 * @param enabled Whether the picker's gRPC server runs.
 * @param port The ext_proc gRPC port (9002, the Gateway API Inference Extension's).
 * @param healthPort The gRPC health service's port (9003, the extension's), with services {@code liveness},
 * {@code readiness} and {@code envoy.service.ext_proc.v3.ExternalProcessor}. 0: served on {@code port} only.
 * @param bodyChunkSize The largest body chunk the picker sends back to the proxy (64KB, as Envoy's streamed mode
 * expects).
 * @param directExecutor Whether each stream's messages are handled on the gRPC transport's event loop, as the HTTP
 * route handles requests on its own, instead of being handed to a worker pool.
 */
@Validated
@ConfigurationProperties(EndpointPickerProperties.PREFIX)
public record EndpointPickerProperties(@DefaultValue("false") boolean enabled,
		@DefaultValue("9002") @Min(0) @Max(65535) int port, @DefaultValue("9003") @Min(0) @Max(65535) int healthPort,
		@DefaultValue("64KB") @NotNull DataSize bodyChunkSize, @DefaultValue("true") boolean directExecutor) {

	public static final String PREFIX = "infergate.endpoint-picker";
}
