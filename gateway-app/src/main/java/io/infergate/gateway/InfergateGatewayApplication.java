package io.infergate.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

import io.infergate.gateway.command.GatewayCommands;

/**
 * The Infergate gateway: OpenAI API on port 8080, management on 8081. A first argument naming one of the
 * {@link GatewayCommands} (such as {@code hash-api-key}) runs that command instead.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class InfergateGatewayApplication {

	public static void main(String[] args) {
		GatewayCommands commands = GatewayCommands.builtIn();
		if (commands.handles(args)) {
			System.exit(commands.run(args, System.in, System.out, System.err));
		}
		SpringApplication.run(InfergateGatewayApplication.class, args);
	}
}
