package io.infergate.gateway.command;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/** A command the gateway jar runs instead of the gateway: {@code java -jar gateway-app.jar <name> [args]}. */
public interface GatewayCommand {

	/** The first command-line argument that selects the command. */
	String name();

	/** One line for the list of commands. */
	String description();

	/** Runs the command; returns the process's exit code. */
	int run(List<String> args, InputStream in, PrintStream out, PrintStream err);
}
