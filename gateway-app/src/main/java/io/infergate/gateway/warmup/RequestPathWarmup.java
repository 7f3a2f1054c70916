package io.infergate.gateway.warmup;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;

/**
 * Warms the request path before the gateway starts, when {@code infergate.warmup.duration} is above zero: the JIT
 * compiles the request path under {@link WarmupRun}'s loopback load, so the gateway's first real requests meet
 * compiled code. It runs once the application's environment is prepared (its configuration read, its logging set
 * up) and before its context is created, so the API and management ports open only afterwards, and readiness and
 * every meter, pool and limit of the application see none of the warm-up's requests.
 * <p>
 * A warm-up that fails is logged in one line and skipped: it never stops the gateway from starting.
 */
public class RequestPathWarmup implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {

	/** How long to load the request path before starting; 0 (the default) skips the warm-up. */
	public static final String DURATION_PROPERTY = "infergate.warmup.duration";

	/** How many requests the warm-up keeps in flight. */
	public static final String CONCURRENCY_PROPERTY = "infergate.warmup.concurrency";

	static final int DEFAULT_CONCURRENCY = 16;

	private static final int MAX_REASON_LENGTH = 300;

	private static final Log logger = LogFactory.getLog(RequestPathWarmup.class);

	@Override
	public int getOrder() {
		// after the configuration has been read and logging initialized
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
		Binder binder = Binder.get(event.getEnvironment());
		Duration duration = binder.bind(DURATION_PROPERTY, Duration.class).orElse(Duration.ZERO);
		if (duration.isNegative() || duration.isZero()) {
			return;
		}
		int concurrency = binder.bind(CONCURRENCY_PROPERTY, Integer.class).orElse(DEFAULT_CONCURRENCY);
		if (concurrency < 1) {
			logger.warn("Warm-up skipped: " + CONCURRENCY_PROPERTY + " must be at least 1, was " + concurrency);
			return;
		}
		boolean apiKeys = binder.bind("infergate.auth.enabled", Boolean.class).orElse(false);
		try {
			WarmupRun.Result result = new WarmupRun(duration, concurrency, apiKeys).run();
			String summary = "Warm-up: " + result.requests() + " requests (" + result.failed() + " failed) in "
					+ result.loadMillis() + " ms of load against " + WarmupRun.POD_COUNT
					+ " recorded pods, " + result.totalMillis() + " ms in all; starting the gateway";
			if (result.failed() > 0) {
				logger.warn(summary + "; first failure: " + result.firstFailure());
			}
			else {
				logger.info(summary);
			}
		}
		catch (RuntimeException ex) {
			String reason = ex.toString().lines().findFirst().orElse("");
			logger.warn("Warm-up skipped, the gateway starts cold: "
					+ reason.substring(0, Math.min(reason.length(), MAX_REASON_LENGTH)));
		}
	}
}
