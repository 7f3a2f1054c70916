package io.infergate.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

import io.infergate.admin.security.PasswordHashCommand;

/**
 * The Infergate gateway: OpenAI API on port 8080, management on 8081.
 * <p>
 * Spring Boot's reactive security auto-configuration is left out: it would put a security filter chain, a login
 * form and a generated user in front of the API. The management port's security lives in the management server's
 * own context ({@link io.infergate.admin.security.ManagementSecurityConfiguration}), so API requests never enter a
 * security filter.
 */
@SpringBootApplication(excludeName = {
		"org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.reactive.ReactiveManagementWebSecurityAutoConfiguration" })
@ConfigurationPropertiesScan
public class InfergateGatewayApplication {

	/**
	 * With one or two CPUs the common fork-join pool has parallelism 1, and {@code CompletableFuture} then runs each
	 * async stage on a new thread: the JDK HTTP client that scrapes engine metrics pays that per scrape. Two
	 * threads halve the scraper's CPU (see routing-starter's metrics README); an explicit setting wins.
	 */
	static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

	/** Runs the gateway; {@code hash-password} as the first argument prints a password hash instead. */
	public static void main(String[] args) {
		if (args.length > 0 && PasswordHashCommand.NAME.equals(args[0])) {
			System.exit(PasswordHashCommand.run());
		}
		if (System.getProperty(COMMON_POOL_PARALLELISM) == null && Runtime.getRuntime().availableProcessors() <= 2) {
			System.setProperty(COMMON_POOL_PARALLELISM, "2");
		}
		SpringApplication.run(InfergateGatewayApplication.class, args);
	}
}
