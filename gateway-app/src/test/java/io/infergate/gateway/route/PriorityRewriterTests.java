package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PriorityRewriterTests {

	private static String set(String body, int value) {
		return new String(PriorityRewriter.set(body.getBytes(StandardCharsets.UTF_8), value), StandardCharsets.UTF_8);
	}

	private static String remove(String body) {
		return new String(PriorityRewriter.remove(body.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
	}

	@Test
	void addsThePriorityRightAfterTheOpeningBraceLeavingEveryOtherByte() {
		assertThat(set(" {\"model\":\"m\", \"stream\":true}", -31))
			.isEqualTo(" {\"priority\":-31,\"model\":\"m\", \"stream\":true}");
	}

	@Test
	void replacesTheClientsValueInPlace() {
		assertThat(set("{\"model\":\"m\",\"priority\": 50 ,\"x\":{\"priority\":2}}", 15))
			.isEqualTo("{\"model\":\"m\",\"priority\": 15 ,\"x\":{\"priority\":2}}");
		assertThat(set("{\"model\":\"m\",\"priority\":null}", -7)).isEqualTo("{\"model\":\"m\",\"priority\":-7}");
		assertThat(set("{\"priority\":-1000000,\"model\":\"m\"}", 0)).isEqualTo("{\"priority\":0,\"model\":\"m\"}");
	}

	@Test
	void removesOnlyTheTopLevelMemberAndOneCommaBesideIt() {
		assertThat(remove("{\"priority\":3, \"model\":\"m\"}")).isEqualTo("{\"model\":\"m\"}");
		assertThat(remove("{\"model\":\"m\" , \"priority\" : 3 }")).isEqualTo("{\"model\":\"m\"  }");
		assertThat(remove("{\"model\":\"m\",\"priority\":null,\"x\":{\"priority\":2}}"))
			.isEqualTo("{\"model\":\"m\",\"x\":{\"priority\":2}}");
		assertThat(remove("{\"model\":\"m\",\"x\":[{\"priority\":2}]}"))
			.isEqualTo("{\"model\":\"m\",\"x\":[{\"priority\":2}]}");
	}

	@Test
	void aBodyWithoutAPriorityToRemoveIsReturnedAsItIs() {
		byte[] body = "{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8);
		assertThat(PriorityRewriter.remove(body)).isSameAs(body);
	}
}
