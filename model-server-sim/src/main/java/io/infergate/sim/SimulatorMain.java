package io.infergate.sim;

import java.io.UncheckedIOException;

/**
 * Runs one simulated model server from the command line; see {@code --help}. Exits 2 on a bad command line
 * (including a tokenizer file that cannot be loaded), 1 if the port cannot be bound.
 */
public final class SimulatorMain {

	private SimulatorMain() {
	}

	public static void main(String[] args) {
		// The jar has no logging backend: keep SLF4J (used by the tokenizers' native bindings) from printing its
		// "no providers" warning, so that a start that fails says so in one line.
		if (System.getProperty("slf4j.internal.verbosity") == null) {
			System.setProperty("slf4j.internal.verbosity", "ERROR");
		}
		if (SimulatorCommandLine.wantsHelp(args)) {
			System.out.print(SimulatorCommandLine.USAGE);
			return;
		}
		SimulatorConfig config;
		try {
			config = SimulatorCommandLine.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println("model-server-sim: " + ex.getMessage() + " (see --help)");
			System.exit(2);
			return;
		}
		SimulatedModelServer server = new SimulatedModelServer(config);
		try {
			server.start();
		}
		catch (UncheckedIOException ex) {
			System.err.println("model-server-sim: " + ex.getMessage() + ": " + ex.getCause().getMessage());
			System.exit(1);
			return;
		}
		Runtime.getRuntime().addShutdownHook(new Thread(server::close, "sim-shutdown"));
		System.out.println("model-server-sim: serving " + config.modelName() + " (" + config.engineFlavor().cliName()
				+ " metrics, perf profile " + config.engine().perfProfile().name() + ", time scale "
				+ config.timeScale() + ") on " + server.baseUrl()
				+ (config.kvEventsEnabled() ? ", KV events on tcp://" + config.host() + ":" + server.kvEventsPort()
						+ ((server.kvEventsReplayPort() != SimulatorConfig.OFF)
								? " (replay on port " + server.kvEventsReplayPort() + ")" : "")
						: "")
				+ ((config.promptEncoder().tokenizerFile() != null)
						? ", tokenizer " + config.promptEncoder().tokenizerFile() : ""));
	}
}
