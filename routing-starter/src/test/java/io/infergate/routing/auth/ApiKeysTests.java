package io.infergate.routing.auth;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.infergate.routing.limits.Caller;

import static org.assertj.core.api.Assertions.assertThat;

class ApiKeysTests {

	private final ApiKeys keys = new ApiKeys(AuthFixtures.twoKeys());

	@Test
	void findsTheKeyWhoseHashIsTheSecretsAndDescribesItsCaller() {
		ApiKey key = keys.authenticate(AuthFixtures.TEAM_A_SECRET);

		assertThat(key.id()).isEqualTo("team-a");
		assertThat(key.caller()).isEqualTo(new Caller("team-a", "a", 2, 3.0));
	}

	@Test
	void aKeyWithoutTenantIsItsOwnTenantOfWeightOne() {
		assertThat(keys.authenticate(AuthFixtures.TEAM_B_SECRET).caller()).isEqualTo(new Caller("team-b", "team-b", 0, 1.0));
	}

	@Test
	void anUnknownSecretOrTheHashItselfFindsNothing() {
		assertThat(keys.authenticate("sk-team-a-012345678")).isNull();
		assertThat(keys.authenticate(ApiKeyHash.sha256Hex(AuthFixtures.TEAM_A_SECRET))).isNull();
	}

	@Test
	void acceptsHashesWrittenInUpperCase() {
		AuthProperties.Key key = new AuthProperties.Key(ApiKeyHash.sha256Hex("s3cret").toUpperCase(Locale.ROOT), null, 0,
				List.of("*"), null, Map.of());
		AuthProperties auth = new AuthProperties(false, Map.of("k", key), Map.of());

		assertThat(new ApiKeys(auth).authenticate("s3cret").id()).isEqualTo("k");
	}

	@Test
	void modelGlobsMatchWholeNames() {
		ApiKey key = keys.byId("team-a");

		assertThat(key.mayCall("gpt-4o-mini")).isTrue();
		assertThat(key.mayCall("support-bot")).isTrue();
		assertThat(key.mayCall("support-bot-2")).isFalse();
		assertThat(key.mayCall("llama")).isFalse();
	}

	@Test
	void theHashOfAKnownSecret() {
		// echo -n test | sha256sum
		assertThat(ApiKeyHash.sha256Hex("test"))
			.isEqualTo("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
		assertThat(ApiKeyHash.isSha256Hex("9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08")).isTrue();
		assertThat(ApiKeyHash.isSha256Hex("sk-plain-secret")).isFalse();
	}
}
