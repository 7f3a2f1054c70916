package io.infergate.gateway.command;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.infergate.gateway.replay.ReplayWorkerCommand;

/**
 * The commands the gateway jar runs instead of starting the gateway, chosen by the first argument before Spring
 * starts. A new command is one {@link GatewayCommand} added to {@link #BUILT_IN}.
 */
public final class GatewayCommands {

	static final List<GatewayCommand> BUILT_IN = List.of(new HashApiKeyCommand(), new HashPasswordCommand(),
			new ReplayWorkerCommand(), new TokenizeCommand());

	private final Map<String, GatewayCommand> byName = new LinkedHashMap<>();

	public GatewayCommands(List<GatewayCommand> commands) {
		commands.forEach((command) -> byName.put(command.name(), command));
	}

	public static GatewayCommands builtIn() {
		return new GatewayCommands(BUILT_IN);
	}

	/** Whether {@code args} names a command rather than starting the gateway. */
	public boolean handles(String[] args) {
		return args.length > 0 && byName.containsKey(args[0]);
	}

	/** Runs the command {@code args} names; returns its exit code. */
	public int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
		GatewayCommand command = byName.get(args[0]);
		List<String> rest = List.of(Arrays.copyOfRange(args, 1, args.length));
		if (rest.contains("--help") || rest.contains("-h")) {
			out.println(command.name() + ": " + command.description());
			return 0;
		}
		return command.run(rest, in, out, err);
	}

	/** The commands' names and descriptions, one per line. */
	public String describe() {
		StringBuilder text = new StringBuilder();
		byName.values().forEach((command) -> text.append("  ").append(command.name()).append("  ")
			.append(command.description()).append(System.lineSeparator()));
		return text.toString();
	}
}
