package io.infergate.gateway.command;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.infergate.routing.auth.ApiKeyHash;

/**
 * {@code hash-api-key}: prints the SHA-256 of an API key's secret, the value of
 * {@code infergate.auth.keys.<id>.sha256}. The secret is read from the first line of standard input (so it stays
 * out of the shell's history and the process list), or taken from the one argument.
 */
public final class HashApiKeyCommand implements GatewayCommand {

	@Override
	public String name() {
		return "hash-api-key";
	}

	@Override
	public String description() {
		return "prints the SHA-256 of an API key's secret, read from standard input or given as the argument, "
				+ "for infergate.auth.keys.<id>.sha256";
	}

	@Override
	public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
		if (args.size() > 1) {
			err.println("hash-api-key takes at most one argument, the secret; or give it on standard input");
			return 2;
		}
		String secret;
		if (args.size() == 1) {
			secret = args.get(0);
		}
		else {
			try {
				secret = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
			}
			catch (IOException ex) {
				err.println("could not read the secret from standard input: " + ex.getMessage());
				return 1;
			}
		}
		if (secret == null || secret.isEmpty()) {
			err.println("no secret given: pipe it in (printf '%s' \"$SECRET\" | java -jar gateway-app.jar "
					+ "hash-api-key) or give it as the argument");
			return 2;
		}
		out.println(ApiKeyHash.sha256Hex(secret));
		return 0;
	}
}
