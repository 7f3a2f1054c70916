package io.infergate.bench;

import java.util.Arrays;

import io.infergate.bench.quality.BenchCommand;
import io.infergate.bench.quality.defaults.CompareDefaultsCommand;
import io.infergate.bench.quality.trace.SynthesizeTraceCommand;
import io.infergate.bench.streams.EventServerCommand;
import io.infergate.bench.picker.PickerLoadCommand;
import io.infergate.bench.streams.StreamHoldCommand;

/**
 * Main class of {@code routing-bench.jar}: runs the routing-quality harness for a command line with
 * {@code --workload} (or {@code --help}), {@code compare-defaults} for the default profile's comparison,
 * {@code stream-hold} to hold many streams open through a proxy and time their events, {@code event-server} to
 * serve streams one event per chunk as cheaply as possible, {@code picker-load} to play Envoy against an Endpoint
 * Picker and time its decisions, {@code synthesize-trace}
 * to write a workload as a capture file, and
 * hands any other command line to JMH, so {@code java -jar routing-bench.jar SchedulingBenchmark -f 1} still runs
 * the benchmarks.
 */
public final class RoutingBenchMain {

	private RoutingBenchMain() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals(CompareDefaultsCommand.NAME)) {
			System.setProperty("java.awt.headless", "true");
			int status = new CompareDefaultsCommand(System.out, System.err, System.console() != null)
				.run(Arrays.copyOfRange(args, 1, args.length));
			System.out.flush();
			System.exit(status);
		}
		if (args.length > 0 && args[0].equals(StreamHoldCommand.NAME)) {
			int status = new StreamHoldCommand(System.out).run(Arrays.copyOfRange(args, 1, args.length));
			System.exit(status);
		}
		if (args.length > 0 && args[0].equals(EventServerCommand.NAME)) {
			System.exit(new EventServerCommand(System.out).run(Arrays.copyOfRange(args, 1, args.length)));
		}
		if (args.length > 0 && args[0].equals(PickerLoadCommand.NAME)) {
			System.exit(new PickerLoadCommand(System.out).run(Arrays.copyOfRange(args, 1, args.length)));
		}
		if (args.length > 0 && args[0].equals(SynthesizeTraceCommand.NAME)) {
			int status = new SynthesizeTraceCommand(System.out).run(Arrays.copyOfRange(args, 1, args.length));
			System.exit(status);
		}
		if (!BenchCommand.isHarnessCommand(args)) {
			org.openjdk.jmh.Main.main(args);
			return;
		}
		System.setProperty("java.awt.headless", "true");
		int status = new BenchCommand(System.out, System.err, System.console() != null).run(args);
		System.out.flush();
		System.exit(status);
	}
}
