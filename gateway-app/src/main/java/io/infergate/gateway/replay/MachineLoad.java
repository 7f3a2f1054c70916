package io.infergate.gateway.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * How busy the machine's processors are with everything but this process, from Linux's {@code /proc/stat}: between
 * two readings, the busy share of all processors' time less the share this process used. Where {@code /proc/stat}
 * cannot be read it knows nothing ({@link Double#NaN}).
 */
final class MachineLoad {

	private static final Path STAT = Path.of("/proc/stat");

	private final Path stat;

	private final LongSupplier ownCpuNanos;

	private long busyTicks = -1;

	private long totalTicks;

	private long ownNanos;

	private long readAtNanos;

	MachineLoad(LongSupplier ownCpuNanos) {
		this(STAT, ownCpuNanos);
	}

	MachineLoad(Path stat, LongSupplier ownCpuNanos) {
		this.stat = stat;
		this.ownCpuNanos = ownCpuNanos;
	}

	/**
	 * The share of all processors' time, in [0, 1], that others used since the last call; NaN on the first call and
	 * where it cannot be told.
	 */
	double othersBusy() {
		long[] ticks = read();
		if (ticks == null) {
			return Double.NaN;
		}
		long now = System.nanoTime();
		long own = ownCpuNanos.getAsLong();
		double others = Double.NaN;
		if (busyTicks >= 0 && ticks[1] > totalTicks && now > readAtNanos) {
			double busy = (double) (ticks[0] - busyTicks) / (ticks[1] - totalTicks);
			double ownShare = (own >= 0 && ownNanos >= 0)
					? (double) (own - ownNanos) / ((double) (now - readAtNanos) * ticks[2]) : 0;
			others = Math.max(0, Math.min(1, busy - ownShare));
		}
		busyTicks = ticks[0];
		totalTicks = ticks[1];
		ownNanos = own;
		readAtNanos = now;
		return others;
	}

	/** Busy and total ticks of all processors, and how many processors; null when unreadable. */
	private long[] read() {
		try {
			List<String> lines = Files.readAllLines(stat);
			long busy = 0;
			long total = 0;
			int processors = 0;
			for (String line : lines) {
				if (line.startsWith("cpu ")) {
					String[] fields = line.trim().split("\\s+");
					for (int i = 1; i < fields.length && i <= 8; i++) {
						long value = Long.parseLong(fields[i]);
						total += value;
						// user nice system idle iowait irq softirq steal: idle (4) and iowait (5) are not busy
						if (i != 4 && i != 5) {
							busy += value;
						}
					}
				}
				else if (line.startsWith("cpu")) {
					processors++;
				}
			}
			return (total > 0 && processors > 0) ? new long[] { busy, total, processors } : null;
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}
}
