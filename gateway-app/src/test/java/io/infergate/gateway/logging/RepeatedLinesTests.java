package io.infergate.gateway.logging;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RepeatedLinesTests {

	private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

	private final RepeatedLines lines = new RepeatedLines(Duration.ofSeconds(10), nanos::get);

	@Test
	void writesTheFirstLineOfAKindAndLeavesOutTheRestOfItsWindow() {
		assertThat(lines.admit("retry", "first")).isEqualTo("first");
		for (int i = 0; i < 999; i++) {
			nanos.addAndGet(Duration.ofMillis(5).toNanos());
			assertThat(lines.admit("retry", "again " + i)).isNull();
		}
	}

	@Test
	void theFirstLineAfterTheWindowCountsThoseLeftOut() {
		lines.admit("retry", "first");
		lines.admit("retry", "second");
		lines.admit("retry", "third");
		nanos.addAndGet(Duration.ofSeconds(10).toNanos());

		assertThat(lines.admit("retry", "fourth"))
			.isEqualTo("fourth (2 more like it left out of the log since the last one)");
		nanos.addAndGet(Duration.ofSeconds(10).toNanos());
		assertThat(lines.admit("retry", "fifth")).isEqualTo("fifth");
	}

	@Test
	void kindsHaveTheirOwnWindows() {
		assertThat(lines.admit("retry", "a")).isEqualTo("a");
		assertThat(lines.admit("stream-failure", "b")).isEqualTo("b");
		assertThat(lines.admit("retry", "c")).isNull();
	}
}
