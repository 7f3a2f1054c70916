package io.infergate.gateway.capture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.infergate.routing.config.ConfigurationCheck;
import io.infergate.routing.prefix.PrefixHasher;
import io.infergate.routing.prefix.PrefixIndexProperties;

/**
 * The traffic capture, when {@code infergate.capture.enabled=true}: its directory is checked at startup (created
 * when missing; a directory that cannot be written stops startup), and its blocks are cut as the prefix index cuts
 * them ({@code infergate.scheduling.prefix}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(CaptureProperties.PREFIX + ".enabled")
class CaptureConfiguration {

	@Bean
	TrafficCapture trafficCapture(CaptureProperties properties, ObjectProvider<PrefixIndexProperties> prefix,
			ObjectProvider<MeterRegistry> registry) {
		PrefixIndexProperties blocks = prefix.getIfAvailable(PrefixIndexProperties::defaults);
		CaptureFiles files = new RotatingCaptureFiles(properties.directory(), properties.maxFileSize().toBytes(),
				properties.maxFileAge(), Clock.systemUTC());
		return new TrafficCapture(files, properties.sampleRatio(), properties.queueCapacity(),
				new PrefixHasher(blocks.blockSizeChars(), blocks.maxBlocks()),
				registry.getIfUnique(SimpleMeterRegistry::new));
	}

	@Bean
	ConfigurationCheck captureDirectoryCheck(CaptureProperties properties) {
		return () -> directoryProblems(properties.directory());
	}

	static List<String> directoryProblems(Path directory) {
		try {
			Files.createDirectories(directory);
			Files.deleteIfExists(Files.createTempFile(directory, "capture-check-", ".tmp"));
			return List.of();
		}
		catch (IOException | RuntimeException ex) {
			return List.of(CaptureProperties.PREFIX + ".directory: " + directory.toAbsolutePath()
					+ " is not a writable directory (" + ex.getClass().getSimpleName() + ": " + ex.getMessage()
					+ ")");
		}
	}
}
