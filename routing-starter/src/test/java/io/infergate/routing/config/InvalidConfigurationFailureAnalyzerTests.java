package io.infergate.routing.config;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class InvalidConfigurationFailureAnalyzerTests {

	@Test
	void everyChecksProblemsAreThrownTogether() {
		ConfigurationCheck pools = () -> List.of("infergate.pools.a.profile: unknown");
		ConfigurationCheck models = () -> List.of("infergate.models.m.pool: no pool named 'b'");
		ConfigurationCheck valid = List::of;

		assertThatExceptionOfType(InvalidConfigurationException.class)
			.isThrownBy(() -> InvalidConfigurationException.throwIfAny(List.of(pools, valid, models)))
			.satisfies((ex) -> assertThat(ex.problems()).containsExactly("infergate.pools.a.profile: unknown",
					"infergate.models.m.pool: no pool named 'b'"));
	}

	@Test
	void passesWhenNoCheckFindsAProblem() {
		InvalidConfigurationException.throwIfAny(List.of(List::of));
	}

	@Test
	void describesTheFailureAsTheListOfProblems() {
		InvalidConfigurationException cause = new InvalidConfigurationException(
				List.of("infergate.models.m.pool: no pool named 'b'; configured pools: a"));

		FailureAnalysis analysis = new InvalidConfigurationFailureAnalyzer()
			.analyze(new BeanCreationException("endpointRegistry", "failed", cause));

		assertThat(analysis.getDescription()).isEqualTo("Invalid configuration:" + System.lineSeparator()
				+ " - infergate.models.m.pool: no pool named 'b'; configured pools: a");
		assertThat(analysis.getAction()).contains("valid names are listed");
	}
}
