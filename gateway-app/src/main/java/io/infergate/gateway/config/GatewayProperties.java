package io.infergate.gateway.config;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/** The gateway's request handling, {@code infergate.gateway.*}. */
@Validated
@ConfigurationProperties("infergate.gateway")
public class GatewayProperties {

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

	public int getRetries() {
		return retries;
	}

	public void setRetries(int retries) {
		this.retries = retries;
	}
}
