package io.infergate.gateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.infergate.routing.config.InvalidConfigurationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A bad key or limit configuration stops startup with every problem listed, and never the secret. */
@ExtendWith(OutputCaptureExtension.class)
class LimitsConfigurationStartupTests {

	@Test
	void aPlainSecretAndANegativeLimitStopStartupWithBothProblemsAndNoSecret(CapturedOutput output) {
		assertThatThrownBy(() -> new SpringApplicationBuilder(InfergateGatewayApplication.class).run("--server.port=0",
				"--management.server.port=0", "--infergate.pools.p.endpoints=http://127.0.0.1:9",
				"--infergate.auth.enabled=true", "--infergate.auth.keys.team-a.sha256=sk-live-a-plain-secret",
				"--infergate.rate-limits.default-limits.tpm=-1"))
			.hasRootCauseInstanceOf(InvalidConfigurationException.class);

		assertThat(output.getAll()).contains("Invalid configuration:")
			.contains("infergate.auth.keys.team-a.sha256: not a SHA-256")
			.contains("infergate.rate-limits.default-limits.tpm: must be 0 (unlimited) or more, got -1")
			.contains("hash-api-key")
			.doesNotContain("sk-live-a-plain-secret");
	}

	@Test
	void aNegativeBudgetAndABudgetOfATenantNoKeyBelongsToStopStartupWithTheirPropertyPaths(CapturedOutput output) {
		assertThatThrownBy(() -> new SpringApplicationBuilder(InfergateGatewayApplication.class).run("--server.port=0",
				"--management.server.port=0", "--infergate.pools.p.endpoints=http://127.0.0.1:9",
				"--infergate.auth.enabled=true",
				"--infergate.auth.keys.team-a.sha256=" + io.infergate.routing.auth.ApiKeyHash.sha256Hex("sk-a"),
				"--infergate.auth.keys.team-a.tenant=a", "--infergate.auth.keys.team-a.limits.budget.amount=-5",
				"--infergate.auth.tenants.nobody.limits.budget.amount=10"))
			.hasRootCauseInstanceOf(InvalidConfigurationException.class);

		assertThat(output.getAll()).contains("infergate.auth.keys.team-a.limits.budget.amount: must be a finite number, 0 or more, got -5.0")
			.contains("infergate.auth.tenants.nobody.limits.budget: no key belongs to tenant 'nobody'");
	}

	@Test
	void aBudgetThatIsNotANumberStopsStartupWithItsPropertyPath(CapturedOutput output) {
		assertThatThrownBy(() -> new SpringApplicationBuilder(InfergateGatewayApplication.class).run("--server.port=0",
				"--management.server.port=0", "--infergate.pools.p.endpoints=http://127.0.0.1:9",
				"--infergate.models.m.pool=p", "--infergate.models.m.limits.budget.amount=fifty",
				"--infergate.models.m.limits.budget.period=weekly"))
			.isInstanceOf(Exception.class);

		assertThat(output.getAll()).contains("infergate.models.m.limits.budget");
	}
}
