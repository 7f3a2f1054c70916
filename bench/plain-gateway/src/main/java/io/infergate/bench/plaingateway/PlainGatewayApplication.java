package io.infergate.bench.plaingateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A stock Spring Cloud Gateway: every {@code /v1/**} request goes round-robin to the instances of service
 * {@code backends}, listed with {@code --spring.cloud.discovery.client.simple.instances.backends[i].uri=...}. It
 * reads no body, parses nothing and schedules nothing: what Infergate costs beyond it is Infergate's own.
 */
@SpringBootApplication
public class PlainGatewayApplication {

	public static void main(String[] args) {
		SpringApplication.run(PlainGatewayApplication.class, args);
	}
}
