package io.infergate.admin.security;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/**
 * {@code hash-password}: prints the bcrypt hash of a password in the form {@code infergate.management.admin.password-hash}
 * takes, {@code {bcrypt}$2a$10$...}. On a terminal it asks for the password twice without echoing it; otherwise it
 * reads the password from standard input (one line; a final newline is not part of it), so
 * {@code printf %s "$PASSWORD" | java -jar gateway-app.jar hash-password} works in scripts.
 */
public final class PasswordHashCommand {

	/** The command's name, the first argument of the gateway's jar. */
	public static final String NAME = "hash-password";

	private PasswordHashCommand() {
	}

	/** Runs the command; returns the process's exit status. */
	public static int run(Console console, Reader in, PrintStream out, PrintStream err) {
		char[] password;
		if (console != null) {
			password = console.readPassword("Password: ");
			char[] again = console.readPassword("Again: ");
			if (password == null || again == null || !Arrays.equals(password, again)) {
				err.println("The passwords differ; nothing printed.");
				return 1;
			}
		}
		else {
			try {
				String line = new BufferedReader(in).readLine();
				password = (line != null) ? line.toCharArray() : new char[0];
			}
			catch (IOException ex) {
				err.println("Could not read the password: " + ex.getMessage());
				return 1;
			}
		}
		if (password.length == 0) {
			err.println("The password is empty; nothing printed.");
			return 1;
		}
		out.println("{bcrypt}" + new BCryptPasswordEncoder().encode(new String(password)));
		return 0;
	}

	/** Runs the command on this process's console or standard streams. */
	public static int run() {
		return run(System.console(), new InputStreamReader(System.in, StandardCharsets.UTF_8), System.out,
				System.err);
	}
}
