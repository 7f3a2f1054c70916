package io.infergate.gateway.config;

import java.time.Duration;
import java.util.List;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The gateway's request handling, {@code infergate.gateway.*}.
 *
 * @param maxBodySize Largest request body accepted; larger ones get 413, enforced while the body streams in.
 * @param servedByHeaders Whether responses carry {@code x-infergate-endpoint} and {@code x-infergate-pool}.
 * @param assumedMaxTokens Tokens a request is assumed to generate when it sets no {@code max_tokens}, for the
 * in-flight estimate.
 * @param servedModelsRefreshInterval How often each endpoint's {@code /v1/models} is re-read.
 * @param retries Retries on another endpoint when connecting fails or the endpoint answers 502/503 before any byte of
 * the body: 0 turns retry off.
 * @param forwardedHeaders The request headers a model server receives; every other header the client sends stays at
 * the gateway. {@code Authorization} is the pool's {@code upstream-api-key}, never the client's.
 * @param maxRequestHeaders Most header fields a request may have; more get 431.
 * @param inlineTokenizationLimit With a model's tokenizer configured, request bodies up to this size are tokenized
 * on the event loop that read them; larger ones on the tokenizer's own threads ({@code infergate-tokenizer}, one per
 * core), so that a long prompt (2 to 3 µs a token) never holds up the connections the loop serves. 0B: always on the
 * tokenizer's threads.
 * @param enabled Whether the OpenAI API is served on the server port. False runs the Endpoint Picker alone
 * ({@code infergate.endpoint-picker.enabled}): the server port then serves no API, only 404s.
 */
@Validated
@ConfigurationProperties(GatewayProperties.PREFIX)
public record GatewayProperties(@DefaultValue("16MB") @NotNull DataSize maxBodySize,
		@DefaultValue("true") boolean servedByHeaders, @DefaultValue("256") @Min(1) int assumedMaxTokens,
		@DefaultValue("30s") @NotNull Duration servedModelsRefreshInterval, @DefaultValue("1") @Min(0) int retries,
		@DefaultValue({ "content-type", "content-length", "accept", "user-agent", "x-request-id", "traceparent",
				"tracestate", "baggage" }) @NotNull List<String> forwardedHeaders,
		@DefaultValue("100") @Min(1) int maxRequestHeaders,
		@DefaultValue("0B") @NotNull DataSize inlineTokenizationLimit, @DefaultValue("true") boolean enabled) {

	public static final String PREFIX = "infergate.gateway";

	/** Off: the OpenAI API is not served (the Endpoint Picker runs alone). */
	public static final String ENABLED = PREFIX + ".enabled";
}
