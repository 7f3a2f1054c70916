package io.infergate.gateway.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The image ({@code Dockerfile}, its entrypoint and its AOT training script) agrees with itself and with the build:
 * a Java 25 runtime by default for jars built for Java 17, the gateway started the way its health check and its AOT
 * cache expect. No image is built here; {@code .ci/compose-smoke.sh} runs one.
 */
class DockerImageTests {

	static final Path ROOT = Path.of("..");

	@Test
	void defaultBaseIsAJava25RuntimeForJarsBuiltForJava17() throws IOException {
		assertThat(read("Dockerfile")).contains("\nARG JRE_IMAGE=eclipse-temurin:25-jre\n");
		assertThat(read("pom.xml")).contains("<java.version>17</java.version>");
	}

	@Test
	void gatewayRunsItsJarFromTheExtractedLayers() throws IOException {
		String dockerfile = read("Dockerfile");

		// without --launcher: java -jar gateway-app.jar, its libraries on the class path (an AOT cache holds only
		// classes of the JDK's own class loaders)
		assertThat(dockerfile).contains("RUN java -Djarmode=tools -jar gateway-app.jar extract --layers --destination extracted\n");
		assertThat(dockerfile).contains("/layers/extracted/application/ gateway/");
		// ContainerHealthCheck recognizes the gateway by its jar
		assertThat(read("deploy/docker/infergate.sh")).contains("-jar /app/gateway/gateway-app.jar \"$@\"")
			.contains("-cp /app/gateway/gateway-app.jar io.infergate.gateway.container.ContainerHealthCheck");
	}

	@Test
	void entrypointUsesTheCacheTheTrainingRunWrites() throws IOException {
		assertThat(read("deploy/docker/aot-training.sh")).contains("\ncache=/app/gateway/gateway.aot\n")
			.contains("-XX:AOTCacheOutput=\"$cache\"")
			.contains("-jar /app/gateway/gateway-app.jar");
		assertThat(read("deploy/docker/infergate.sh"))
			.contains("[ -f /app/gateway/gateway.aot ] && aot_cache=\"-XX:AOTCache=/app/gateway/gateway.aot\"");
		assertThat(read("Dockerfile")).contains("COPY deploy/docker/aot-training.sh bin/aot-training\n")
			.contains("/app/bin/aot-training \"$AOT_TRAINING_WARMUP\"");
	}

	private static String read(String file) throws IOException {
		return Files.readString(ROOT.resolve(file));
	}

}
