package io.infergate.gateway.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/** The gateway's request handling, {@code infergate.gateway.*}. */
@Validated
@ConfigurationProperties(GatewayProperties.PREFIX)
public class GatewayProperties {

	public static final String PREFIX = "infergate.gateway";

	/** Largest request body accepted; larger ones get 413, enforced while the body streams in. */
	@NotNull
	private DataSize maxBodySize = DataSize.ofMegabytes(16);

	/** Whether responses carry {@code x-infergate-endpoint} and {@code x-infergate-pool}. */
	private boolean servedByHeaders = true;

	/**
	 * Tokens a request is assumed to generate when it sets no {@code max_tokens}, for the in-flight estimate.
	 */
	@Min(1)
	private int assumedMaxTokens = 256;

	/** How often each endpoint's {@code /v1/models} is re-read. */
	@NotNull
	private Duration servedModelsRefreshInterval = Duration.ofSeconds(30);

	/**
	 * Retries on another endpoint when connecting fails or the endpoint answers 502/503 before any byte of the
	 * body: 0 turns retry off.
	 */
	@Min(0)
	private int retries = 1;

	/**
	 * The request headers a model server receives; every other header the client sends stays at the gateway.
	 * {@code Authorization} is the pool's {@code upstream-api-key}, never the client's.
	 */
	@NotNull
	private List<String> forwardedHeaders = new ArrayList<>(List.of("content-type", "content-length", "accept",
			"user-agent", "x-request-id", "traceparent", "tracestate", "baggage"));

	/** Most header fields a request may have; more get 431. */
	@Min(1)
	private int maxRequestHeaders = 100;

	public DataSize getMaxBodySize() {
		return maxBodySize;
	}

	public void setMaxBodySize(DataSize maxBodySize) {
		this.maxBodySize = maxBodySize;
	}

	public boolean isServedByHeaders() {
		return servedByHeaders;
	}

	public void setServedByHeaders(boolean servedByHeaders) {
		this.servedByHeaders = servedByHeaders;
	}

	public int getAssumedMaxTokens() {
		return assumedMaxTokens;
	}

	public void setAssumedMaxTokens(int assumedMaxTokens) {
		this.assumedMaxTokens = assumedMaxTokens;
	}

	public Duration getServedModelsRefreshInterval() {
		return servedModelsRefreshInterval;
	}

	public void setServedModelsRefreshInterval(Duration servedModelsRefreshInterval) {
		this.servedModelsRefreshInterval = servedModelsRefreshInterval;
	}

	public List<String> getForwardedHeaders() {
		return forwardedHeaders;
	}

	public void setForwardedHeaders(List<String> forwardedHeaders) {
		this.forwardedHeaders = forwardedHeaders;
	}

	public int getMaxRequestHeaders() {
		return maxRequestHeaders;
	}

	public void setMaxRequestHeaders(int maxRequestHeaders) {
		this.maxRequestHeaders = maxRequestHeaders;
	}

	public int getRetries() {
		return retries;
	}

	public void setRetries(int retries) {
		this.retries = retries;
	}
}
