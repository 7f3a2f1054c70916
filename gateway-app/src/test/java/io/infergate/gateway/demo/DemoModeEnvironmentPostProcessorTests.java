package io.infergate.gateway.demo;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class DemoModeEnvironmentPostProcessorTests {

	private final DemoModeEnvironmentPostProcessor postProcessor = new DemoModeEnvironmentPostProcessor();

	private String ports(SpringApplication application) {
		StandardEnvironment environment = new StandardEnvironment();
		postProcessor.postProcessEnvironment(environment, application);
		return environment.getProperty(DemoModeEnvironmentPostProcessor.PORTS_PROPERTY);
	}

	@Test
	void aRefreshOfTheSameApplicationFindsThePodsWhereTheyAre() {
		SpringApplication application = new SpringApplication();
		String first = ports(application);

		assertThat(first).matches("\\d+(,\\d+){3}");
		assertThat(ports(application)).isEqualTo(first);
		assertThat(ports(new SpringApplication())).isNotEqualTo(first);
	}
}
