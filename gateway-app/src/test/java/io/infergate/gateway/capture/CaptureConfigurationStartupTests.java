package io.infergate.gateway.capture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.infergate.gateway.InfergateGatewayApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A capture that cannot work stops startup, naming the property at fault. */
@ExtendWith(OutputCaptureExtension.class)
class CaptureConfigurationStartupTests {

	@TempDir
	Path directory;

	@ParameterizedTest
	@ValueSource(strings = { "0", "2", "-0.5" })
	void aSampleRatioOutsideZeroToOneStopsStartup(String ratio, CapturedOutput output) {
		assertThatThrownBy(() -> start("--infergate.capture.sample-ratio=" + ratio,
				"--infergate.capture.directory=" + directory))
			.isInstanceOf(Exception.class);

		assertThat(output.getAll()).contains("infergate.capture.sample-ratio");
	}

	@Test
	void aDirectoryThatCannotBeWrittenStopsStartup(CapturedOutput output) throws IOException {
		Path notADirectory = Files.writeString(directory.resolve("a-file"), "x");

		assertThatThrownBy(() -> start("--infergate.capture.directory=" + notADirectory.resolve("captures")))
			.isInstanceOf(Exception.class);

		assertThat(output.getAll()).contains("infergate.capture.directory: " + notADirectory.resolve("captures")
				+ " is not a writable directory");
	}

	private static void start(String... arguments) {
		String[] all = new String[arguments.length + 5];
		all[0] = "--server.port=0";
		all[1] = "--management.server.port=0";
		all[2] = "--infergate.demo.enabled=false";
		all[3] = "--infergate.pools.p.endpoints=http://127.0.0.1:9";
		all[4] = "--infergate.capture.enabled=true";
		System.arraycopy(arguments, 0, all, 5, arguments.length);
		new SpringApplicationBuilder(InfergateGatewayApplication.class).run(all).close();
	}
}
