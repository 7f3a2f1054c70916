package io.infergate.admin.snapshot;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;

/**
 * The dashboards' live feed: one snapshot per tick, encoded once as a Server-Sent Events frame and handed to every
 * subscriber, so twenty open dashboards cost one snapshot, not twenty.
 * <p>
 * The ticking starts with the first subscriber and stops when the last one leaves. A subscriber first receives
 * the latest frame, then each new one; one that reads slower than the ticks skips to the newest frame instead of
 * queueing them.
 */
public final class SnapshotFeed {

	private static final Log logger = LogFactory.getLog(SnapshotFeed.class);

	/** The SSE event name of a snapshot. */
	public static final String EVENT = "snapshot";

	private final Flux<byte[]> frames;

	/**
	 * @param snapshot builds one snapshot as JSON; called once per tick, on {@code scheduler}
	 * @param tick time between snapshots
	 * @param scheduler where the ticks run
	 */
	public SnapshotFeed(Supplier<String> snapshot, Duration tick, Scheduler scheduler) {
		this.frames = Flux.interval(Duration.ZERO, tick, scheduler)
			.onBackpressureDrop()
			.<byte[]>handle((ignored, sink) -> {
				try {
					sink.next(frame(snapshot.get()));
				}
				catch (RuntimeException ex) {
					// one failed snapshot (a section's source throwing, say) skips a tick, not the feed
					logger.warn("Dashboard snapshot failed; skipping this tick", ex);
				}
			})
			.replay(1)
			.refCount();
	}

	/** The frames for one subscriber: the latest one, then every new one, skipping those it is too slow for. */
	public Flux<byte[]> frames() {
		return frames.onBackpressureLatest();
	}

	private static byte[] frame(String json) {
		return ("event: " + EVENT + "\ndata: " + json + "\n\n").getBytes(StandardCharsets.UTF_8);
	}
}
