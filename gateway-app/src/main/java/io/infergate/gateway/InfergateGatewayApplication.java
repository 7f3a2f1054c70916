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

	/**
	 * With one or two CPUs the common fork-join pool has parallelism 1, and {@code CompletableFuture} then runs each
	 * async stage on a new thread: the JDK HTTP client that scrapes engine metrics pays that per scrape. Two
	 * threads halve the scraper's CPU (see routing-starter's metrics README); an explicit setting wins.
	 */
	static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

	public static void main(String[] args) {
		GatewayCommands commands = GatewayCommands.builtIn();
		if (commands.handles(args)) {
			System.exit(commands.run(args, System.in, System.out, System.err));
		}
		if (System.getProperty(COMMON_POOL_PARALLELISM) == null && Runtime.getRuntime().availableProcessors() <= 2) {
			System.setProperty(COMMON_POOL_PARALLELISM, "2");
		}
		SpringApplication.run(InfergateGatewayApplication.class, args);
	}
}
