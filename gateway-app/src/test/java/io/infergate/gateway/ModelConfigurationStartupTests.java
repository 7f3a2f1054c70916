package io.infergate.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.support.TestTokenizers;
import io.infergate.routing.config.InvalidConfigurationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Every name the configuration uses for something else is checked at startup: a start with a bad one fails before
 * any pool is created, and the failure report names the property, the bad value and the valid names.
 */
@ExtendWith(OutputCaptureExtension.class)
class ModelConfigurationStartupTests {

	private static final List<String> POOLS = List.of("server.port=0", "management.server.port=0",
			"infergate.demo.enabled=false", "spring.main.banner-mode=off",
			"infergate.pools.llama.endpoints=http://127.0.0.1:9",
			"infergate.pools.llama-long.endpoints=http://127.0.0.1:9");

	static Stream<Arguments> invalidConfigurations() {
		return Stream.of(
				Arguments.of(List.of("infergate.pools.llama.profile=defualt"),
						"infergate.pools.llama.profile: unknown scheduling profile 'defualt'; defined profiles: "),
				Arguments.of(List.of("infergate.models.chat.pool=lama"),
						"infergate.models.chat.pool: no pool named 'lama'; configured pools: llama, llama-long"),
				Arguments.of(List.of("infergate.models.chat.targets[0].pool=llama",
						"infergate.models.chat.targets[1].pool=nope"),
						"infergate.models.chat.targets[1].pool: no pool named 'nope'; configured pools: llama, "
								+ "llama-long"),
				Arguments.of(List.of("infergate.models.chat.targets[0].pool=llama",
						"infergate.models.chat.targets[0].weight=-5"),
						"infergate.models.chat.targets[0].weight: must be at least 0, got -5"),
				Arguments.of(List.of("infergate.models.chat.targets[0].pool=llama",
						"infergate.models.chat.targets[0].weight=0"),
						"infergate.models.chat.targets: every weight is 0"),
				Arguments.of(List.of("infergate.models.chat.pool=llama", "infergate.models.chat.fallbacks=chat-large"),
						"infergate.models.chat.fallbacks[0]: no model named 'chat-large'; configured models: chat"),
				Arguments.of(List.of("infergate.models.a.pool=llama", "infergate.models.a.fallbacks=b",
						"infergate.models.b.pool=llama", "infergate.models.b.fallbacks=a"),
						"infergate.models.a.fallbacks: a loop of fallbacks"),
				Arguments.of(List.of("infergate.models.summarize.lanes[0].max-tokens=8192",
						"infergate.models.summarize.lanes[0].pool=llama",
						"infergate.models.summarize.lanes[1].pool=llama-lng"),
						"infergate.models.summarize.lanes[1].pool: no pool named 'llama-lng'; configured pools: "
								+ "llama, llama-long"),
				Arguments.of(List.of("infergate.models.summarize.lanes[0].pool=llama",
						"infergate.models.summarize.lanes[1].pool=llama-long"),
						"infergate.models.summarize.lanes[1]: unreachable; lanes[0] before it takes any request"),
				Arguments.of(List.of("infergate.models.bot.pool=llama", "infergate.models.bot.adapter=support lora"),
						"infergate.models.bot.adapter: must be an adapter name without whitespace or control "
								+ "characters, got 'support lora'"),
				Arguments.of(List.of("infergate.models.chat.target-model=llama-3.1"),
						"infergate.models.chat: no route; give it a pool, targets or lanes"),
				Arguments.of(List.of("infergate.pools.llama.timeouts.first-byte=0s"),
						"infergate.pools.llama.timeouts.first-byte: must be positive (or unset for no limit), was 0ms"),
				Arguments.of(List.of("infergate.pools.llama.engine-priority=vlm"),
						"Failed to bind properties under 'infergate.pools.llama.engine-priority' to "
								+ "io.infergate.routing.pool.EnginePriority"),
				Arguments.of(List.of("infergate.pools.llama.tokenizer.path=" + TestTokenizers.qwen3(),
						"infergate.pools.llama.tokenizer.routing-tokens=8"),
						"routing-tokens: must be at least 16, got 8"),
				Arguments.of(List.of("infergate.pools.llama.tokenizer.path=/nonexistent/llama/tokenizer.json"),
						"infergate.pools.llama.tokenizer.path: no tokenizer file at /nonexistent/llama/tokenizer.json"),
				Arguments.of(List.of("infergate.models.chat.pool=llama", "infergate.models.chat.tokenizer.path=/nope"),
						"infergate.models.chat.tokenizer.path: no tokenizer file at /nope"),
				Arguments.of(List.of("infergate.pools.llama.tokenizer.path=" + file("tokenizer.json", "{\"not\": 1")),
						"infergate.pools.llama.tokenizer.path: cannot load "),
				Arguments.of(List.of("infergate.pools.llama.tokenizer.path=" + TestTokenizers.qwen3(),
						"infergate.pools.llama.tokenizer.chat-template=" + file("template.jinja", "{% if %}oops")),
						"infergate.pools.llama.tokenizer.chat-template: invalid chat template in "),
				Arguments.of(List.of("infergate.pools.llama.tokenizer.type=sentencepiece"),
						"infergate.pools.llama.tokenizer.type: unknown type 'sentencepiece'; the types are "
								+ "[huggingface, simulator]"),
				Arguments.of(List.of("infergate.pools.llama.profile=precise"),
						"infergate.pools.llama.tokenizer: required by the scheduling profile 'precise'"));
	}

	/** A file of {@code content} in a directory of its own. */
	private static Path file(String name, String content) {
		try {
			Path file = Files.createTempDirectory("infergate-tokenizer").resolve(name);
			Files.writeString(file, content);
			file.toFile().deleteOnExit();
			file.getParent().toFile().deleteOnExit();
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@ParameterizedTest
	@MethodSource("invalidConfigurations")
	void startupFailsNamingTheProperty(List<String> properties, String problem, CapturedOutput output) {
		assertThatException().isThrownBy(() -> start(properties));

		assertThat(output).contains("APPLICATION FAILED TO START").contains(problem);
	}

	@Test
	void reportsEveryProblemAtOnce() {
		assertThatException().isThrownBy(() -> start(List.of("infergate.pools.llama.profile=defualt",
				"infergate.models.chat.pool=lama", "infergate.models.chat.fallbacks=chat-large")))
			.havingRootCause()
			.isInstanceOfSatisfying(InvalidConfigurationException.class,
					(ex) -> assertThat(ex.problems()).hasSize(3)
						.anySatisfy((problem) -> assertThat(problem).startsWith("infergate.pools.llama.profile"))
						.anySatisfy((problem) -> assertThat(problem).startsWith("infergate.models.chat.pool"))
						.anySatisfy((problem) -> assertThat(problem).startsWith("infergate.models.chat.fallbacks[0]")));
	}

	private static void start(List<String> properties) {
		List<String> all = new ArrayList<>(POOLS);
		all.addAll(properties);
		ConfigurableApplicationContext context = new SpringApplicationBuilder(InfergateGatewayApplication.class)
			.properties(all.toArray(new String[0]))
			.run();
		context.close();
	}
}
