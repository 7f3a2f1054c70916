package io.infergate.bench.quality.report;

import java.io.PrintStream;
import java.util.Locale;

import io.infergate.bench.quality.replay.Replay;

/**
 * Progress of a bench run on stderr: on a terminal one bar redrawn in place with carriage returns (at most every
 * 100 ms), otherwise a plain line at every tenth of each replay.
 */
public final class ProgressBar implements Replay.Progress {

	private static final int WIDTH = 30;

	private static final long REDRAW_NANOS = 100_000_000L;

	private final PrintStream out;

	private final boolean terminal;

	private final long totalRequests;

	private long doneRequests;

	private String label = "";

	private long runRequests;

	private long runDone;

	private long lastDrawNanos;

	private int lastTenth;

	/**
	 * @param totalRequests requests of every replay of the run together
	 */
	public ProgressBar(PrintStream out, boolean terminal, long totalRequests) {
		this.out = out;
		this.terminal = terminal;
		this.totalRequests = totalRequests;
	}

	/** A replay of {@code requests} requests starts. */
	public void startRun(String label, long requests) {
		this.label = label;
		this.runRequests = requests;
		this.runDone = 0;
		this.lastTenth = 0;
		draw(true);
	}

	@Override
	public void requestEnded() {
		doneRequests++;
		runDone++;
		if (terminal) {
			long now = System.nanoTime();
			if (now - lastDrawNanos >= REDRAW_NANOS || runDone == runRequests) {
				lastDrawNanos = now;
				draw(false);
			}
		}
		else {
			int tenth = (int) (runDone * 10 / Math.max(1, runRequests));
			if (tenth > lastTenth) {
				lastTenth = tenth;
				draw(false);
			}
		}
	}

	/** Ends the bar's line. */
	public void finish() {
		if (terminal) {
			out.println();
		}
		out.flush();
	}

	private void draw(boolean starting) {
		double fraction = (totalRequests == 0) ? 1 : (double) doneRequests / totalRequests;
		if (terminal) {
			int filled = (int) Math.round(fraction * WIDTH);
			out.print(String.format(Locale.ROOT, "\r[%s%s] %3d%%  %s  %d/%d\u001b[K", "#".repeat(filled),
					"-".repeat(WIDTH - filled), Math.round(fraction * 100), label, runDone, runRequests));
		}
		else if (!starting) {
			out.println(String.format(Locale.ROOT, "%3d%%  %s  %d/%d", Math.round(fraction * 100), label, runDone,
					runRequests));
		}
		out.flush();
	}
}
