package io.infergate.gateway.command;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.infergate.admin.security.PasswordHashCommand;

/**
 * {@code hash-password}: prints the bcrypt hash of the management admin's password, the value of
 * {@code infergate.management.admin.password-hash}. On a terminal it asks twice without echo; otherwise it reads
 * the first line of standard input.
 */
public final class HashPasswordCommand implements GatewayCommand {

	@Override
	public String name() {
		return PasswordHashCommand.NAME;
	}

	@Override
	public String description() {
		return "prints the bcrypt hash of the management admin's password, asked on the terminal or read from "
				+ "standard input, for infergate.management.admin.password-hash";
	}

	@Override
	public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
		if (!args.isEmpty()) {
			err.println("hash-password takes no argument: type the password when asked, or pipe it in");
			return 2;
		}
		return PasswordHashCommand.run((in == System.in) ? System.console() : null,
				new InputStreamReader(in, StandardCharsets.UTF_8), out, err);
	}
}
