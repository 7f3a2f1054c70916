package io.infergate.bench.quality.replay;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The replay's virtual time as a {@link Clock}, for the plugins that read the time (snapshot staleness, session
 * expiry, decision sampling). Virtual time 0 is a fixed instant, so runs repeat. Set only by the replay loop.
 */
final class VirtualClock extends Clock {

	/** 2026-01-01T00:00:00Z: what virtual time 0 stands for. */
	static final long EPOCH_MILLIS = 1_767_225_600_000L;

	private long nowMicros;

	void setMicros(long micros) {
		this.nowMicros = micros;
	}

	long nowMicros() {
		return nowMicros;
	}

	@Override
	public long millis() {
		return EPOCH_MILLIS + nowMicros / 1000;
	}

	@Override
	public Instant instant() {
		return Instant.ofEpochMilli(EPOCH_MILLIS).plusNanos(nowMicros * 1000);
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException("the virtual clock is UTC only");
	}
}
