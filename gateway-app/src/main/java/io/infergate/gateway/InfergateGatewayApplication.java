package io.infergate.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

import io.infergate.gateway.command.GatewayCommands;
import io.infergate.gateway.warmup.RequestPathWarmup;

/**
 * The Infergate gateway: OpenAI API on port 8080, management on 8081. A first argument naming one of the
 * {@link GatewayCommands} (such as {@code hash-api-key} or {@code hash-password}) runs that command instead.
 * <p>
 * Spring Boot's reactive security auto-configuration is left out: it would put a security filter chain, a login
 * form and a generated user in front of the API. The management port's security lives in the management server's
 * own context ({@link io.infergate.admin.security.ManagementSecurityConfiguration}), so API requests never enter a
 * security filter.
 * <p>
 * With {@code infergate.warmup.duration} set, {@link RequestPathWarmup} loads the request path of a throwaway
 * context before this one is created.
 */
@SpringBootApplication(excludeName = {
		"org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.reactive.ReactiveManagementWebSecurityAutoConfiguration" })
@ConfigurationPropertiesScan
public class InfergateGatewayApplication {

	public static void main(String[] args) {
		GatewayCommands commands = GatewayCommands.builtIn();
		if (commands.handles(args)) {
			System.exit(commands.run(args, System.in, System.out, System.err));
		}
		SpringApplication application = new SpringApplication(InfergateGatewayApplication.class);
		application.addListeners(new RequestPathWarmup());
		application.run(args);
	}
}
