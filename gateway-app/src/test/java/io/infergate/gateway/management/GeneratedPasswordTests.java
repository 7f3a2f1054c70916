package io.infergate.gateway.management;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.InfergateGatewayApplication;
import io.infergate.gateway.support.Http;

import static org.assertj.core.api.Assertions.assertThat;

/** Without a password hash the gateway starts anyway, with a generated password logged once. */
@ExtendWith(OutputCaptureExtension.class)
class GeneratedPasswordTests {

	private static final Pattern GENERATED = Pattern.compile("user 'admin', generated password: (\\S+)");

	@Test
	void logsAGeneratedPasswordOnceAndAcceptsIt(CapturedOutput output) {
		try (ConfigurableApplicationContext context = SpringApplication.run(InfergateGatewayApplication.class,
				"--server.port=0", "--management.server.port=0", "--infergate.demo.enabled=false",
				"--infergate.pools.p.endpoints=http://127.0.0.1:9", "--infergate.management.admin.password-hash=")) {
			String management = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.management.port");
			Matcher generated = GENERATED.matcher(output.getOut());

			assertThat(generated.find()).as("generated password in the log").isTrue();
			String password = generated.group(1);
			assertThat(generated.find()).as("logged a second time").isFalse();
			assertThat(Http.send(HttpRequest.newBuilder(URI.create(management + "/actuator/inference"))
				.header("Authorization", Http.basic("admin", password))
				.build()).statusCode()).isEqualTo(200);
			assertThat(Http.getAsAdmin(management + "/actuator/inference").statusCode()).isEqualTo(401);
		}
	}
}
