package io.infergate.routing.scheduling;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves by hand. */
public final class MutableClock extends Clock {

	private volatile long millis;

	public MutableClock(long millis) {
		this.millis = millis;
	}

	public void advanceMillis(long delta) {
		millis += delta;
	}

	@Override
	public long millis() {
		return millis;
	}

	@Override
	public Instant instant() {
		return Instant.ofEpochMilli(millis);
	}

	@Override
	public ZoneOffset getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException();
	}
}
