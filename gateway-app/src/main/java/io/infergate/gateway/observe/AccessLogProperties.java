package io.infergate.gateway.observe;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** The access log, {@code infergate.access-log.*}. */
@ConfigurationProperties("infergate.access-log")
public class AccessLogProperties {

	/** Whether every inference request is logged as one JSON line on the {@code io.infergate.access} logger. */
	private boolean enabled = false;

	public boolean isEnabled() {
		return enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}
}
