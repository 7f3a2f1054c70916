package io.infergate.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The Infergate gateway: OpenAI API on port 8080, management on 8081. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class InfergateGatewayApplication {

	public static void main(String[] args) {
		SpringApplication.run(InfergateGatewayApplication.class, args);
	}
}
