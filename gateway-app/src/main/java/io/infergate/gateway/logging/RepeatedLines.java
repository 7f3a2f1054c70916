package io.infergate.gateway.logging;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;

/**
 * Summarises log lines that repeat: the first line of a kind in a window is written, the others in that window are
 * only counted, and the first line after the window says how many were left out. A failing pod or a flood of bad
 * requests then writes a few lines a window instead of one per request. Kinds are a small fixed set named by the
 * callers (never client input). Thread-safe.
 */
public final class RepeatedLines {

	/** How long a kind of line stays quiet after it was written. */
	public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

	private final long windowNanos;

	private final LongSupplier nanoTime;

	private final ConcurrentMap<String, Window> windows = new ConcurrentHashMap<>();

	public RepeatedLines() {
		this(DEFAULT_WINDOW, System::nanoTime);
	}

	public RepeatedLines(Duration window, LongSupplier nanoTime) {
		this.windowNanos = window.toNanos();
		this.nanoTime = nanoTime;
	}

	/**
	 * The line to write for {@code message} of {@code kind}, with a count of the lines of that kind left out since
	 * the last one written; {@code null} when this one is left out.
	 */
	public String admit(String kind, String message) {
		long now = nanoTime.getAsLong();
		Window window = windows.computeIfAbsent(kind, (k) -> new Window(now - windowNanos));
		synchronized (window) {
			if (now - window.writtenNanos < windowNanos) {
				window.leftOut++;
				return null;
			}
			long leftOut = window.leftOut;
			window.writtenNanos = now;
			window.leftOut = 0;
			return (leftOut == 0) ? message
					: message + " (" + leftOut + " more like it left out of the log since the last one)";
		}
	}

	private static final class Window {

		long writtenNanos;

		long leftOut;

		Window(long writtenNanos) {
			this.writtenNanos = writtenNanos;
		}
	}
}
