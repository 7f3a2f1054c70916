package io.infergate.routing.scheduling.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.autoconfigure.SchedulingAutoConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/** The profiles shipped in {@code infergate-profiles.yml}, present in every application that uses the starter. */
@ExtendWith(OutputCaptureExtension.class)
class ShippedProfilesTests {

	static final String DEPRECATED_CHOICE = "Choosing the default scheduling profile with ";

	@Test
	void defaultProfileIsDefaultWithHybridsDefinitionAndLlmDsWeightsAreLlmD() {
		try (ConfigurableApplicationContext context = run(new String[0])) {
			SchedulingProfiles profiles = context.getBean(SchedulingProfiles.class);
			SchedulingProfile profile = profiles.defaultProfile();

			assertThat(profiles.names()).containsExactly("default", "llm-d", "precise", "load-only", "least-request",
					"round-robin", "random", "prefix-only", "chwbl", "chwbl-engine-load", "session", "hybrid");
			assertThat(profile.name()).isEqualTo("default");
			assertThat(describe(profile)).isEqualTo(describe(profiles.get("hybrid")))
				.isEqualTo("[ready, circuit-breaker, lora-affinity] {estimated-ttft=1.0} max-score");
			assertThat(describe(profiles.get("llm-d")))
				.isEqualTo("[ready, circuit-breaker, saturation] {queue=2.0, kv-cache=2.0, prefix-cache=3.0} max-score");
		}
	}

	@Test
	void changingTheDefaultLeavesHybridAsShipped(@TempDir Path directory) throws IOException {
		String location = applicationFile(directory, """
				infergate.scheduling.profiles.default.scorers.estimated-ttft: 2
				""");

		try (ConfigurableApplicationContext context = run(new String[0], location)) {
			SchedulingProfiles profiles = context.getBean(SchedulingProfiles.class);

			assertThat(describe(profiles.defaultProfile())).contains("{estimated-ttft=2.0}");
			assertThat(describe(profiles.get("hybrid"))).contains("{estimated-ttft=1.0}");
		}
	}

	@Test
	void shipsThePrefixChwblSessionHybridAndPreciseProfiles() {
		try (ConfigurableApplicationContext context = run(new String[0])) {
			SchedulingProfiles profiles = context.getBean(SchedulingProfiles.class);

			assertThat(describe(profiles.get("prefix-only")))
				.isEqualTo("[circuit-breaker] {prefix-cache=1.0, least-request=0.001} max-score");
			assertThat(describe(profiles.get("chwbl"))).isEqualTo("[circuit-breaker] {} chwbl");
			assertThat(profiles.get("chwbl").load().name()).isEqualTo("in-flight");
			assertThat(describe(profiles.get("chwbl-engine-load"))).isEqualTo("[circuit-breaker] {} chwbl");
			assertThat(profiles.get("chwbl-engine-load").load().name()).isEqualTo("engine-reported");
			assertThat(describe(profiles.get("session")))
				.isEqualTo("[ready, circuit-breaker, saturation] {session-affinity=3.0, queue=2.0, kv-cache=2.0} max-score");
			assertThat(describe(profiles.get("hybrid")))
				.isEqualTo("[ready, circuit-breaker, lora-affinity] {estimated-ttft=1.0} max-score");
			assertThat(describe(profiles.get("precise")))
				.isEqualTo("[ready, circuit-breaker, saturation] {queue=2.0, kv-cache=2.0, precise-prefix=3.0} max-score");
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "llm-d", "precise", "load-only", "least-request", "round-robin", "random", "prefix-only", "chwbl",
			"chwbl-engine-load", "session", "hybrid" })
	void springProfileOfTheSameNameBecomesTheDefault(String name) {
		try (ConfigurableApplicationContext context = run(new String[] { name })) {
			assertThat(context.getBean(SchedulingProfiles.class).defaultProfile().name()).isEqualTo(name);
		}
	}

	@Test
	void choosingTheDefaultWithASpringProfileStillWorksAndWarnsOnceThatItIsDeprecated(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run(new String[0], "--spring.profiles.active=load-only")) {
			assertThat(context.getBean(SchedulingProfiles.class).defaultProfile().name()).isEqualTo("load-only");
		}
		assertThat(output.getOut().split(DEPRECATED_CHOICE + "spring.profiles.active=load-only is deprecated: set "
				+ "infergate.scheduling.default-profile=load-only", -1)).hasSize(2);
	}

	@Test
	void choosingTheDefaultWithThePropertyLogsNoWarning(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run(new String[0],
				"--infergate.scheduling.default-profile=load-only")) {
			assertThat(context.getBean(SchedulingProfiles.class).defaultProfile().name()).isEqualTo("load-only");
		}
		assertThat(output).doesNotContain(DEPRECATED_CHOICE);
	}

	@Test
	void thePropertyWinsOverASpringProfileWithoutWarning(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run(new String[0], "--spring.profiles.active=precise",
				"--infergate.scheduling.default-profile=load-only")) {
			assertThat(context.getBean(SchedulingProfiles.class).defaultProfile().name()).isEqualTo("load-only");
		}
		assertThat(output).doesNotContain(DEPRECATED_CHOICE);
	}

	@Test
	void applicationFileChoosesTheDefaultProfile(@TempDir Path directory) throws IOException {
		String location = applicationFile(directory, """
				infergate.scheduling.default-profile: round-robin
				""");

		try (ConfigurableApplicationContext context = run(new String[0], location)) {
			assertThat(context.getBean(SchedulingProfiles.class).defaultProfile().name()).isEqualTo("round-robin");
		}
	}

	@Test
	void applicationFileOverridesShippedDefinitions(@TempDir Path directory) throws IOException {
		String location = applicationFile(directory, """
				infergate.scheduling.profiles.llm-d.scorers.queue: 5
				infergate.scheduling.profiles.llm-d.picker: random
				""");

		try (ConfigurableApplicationContext context = run(new String[0], location)) {
			SchedulingProfile profile = context.getBean(SchedulingProfiles.class).get("llm-d");

			assertThat(profile.scorers()).extracting((weighted) -> weighted.scorer().name() + "=" + weighted.weight())
				.containsExactly("queue=5.0", "kv-cache=2.0", "prefix-cache=3.0");
			assertThat(profile.picker().name()).isEqualTo("random");
		}
	}

	@Test
	void invalidConfigurationIsReportedAsItsProblemsNotAStackTrace(CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> run(new String[0], "--infergate.scheduling.profiles.default.scorers.qeue=1"));

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("infergate.scheduling.profiles.default.scorers.qeue: unknown scorer 'qeue'; valid scorers:");
	}

	private static String describe(SchedulingProfile profile) {
		return profile.filters().stream().map((filter) -> filter.name()).toList() + " "
				+ profile.scorers()
					.stream()
					.map((weighted) -> weighted.scorer().name() + "=" + weighted.weight())
					.collect(Collectors.joining(", ", "{", "}"))
				+ " " + profile.picker().name();
	}

	private static String applicationFile(Path directory, String yaml) throws IOException {
		Path file = Files.writeString(directory.resolve("application.yml"), yaml);
		return "--spring.config.location=" + file.toUri();
	}

	private static ConfigurableApplicationContext run(String[] springProfiles, String... args) {
		SpringApplication application = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.profiles(springProfiles)
			.build();
		return application.run(args);
	}

	@SpringBootConfiguration
	@ImportAutoConfiguration(SchedulingAutoConfiguration.class)
	static class Application {

	}
}
