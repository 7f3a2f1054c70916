package io.infergate.bench.quality.workload;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.infergate.bench.quality.workload.WorkloadRequests.Conversation;
import io.infergate.simtokenizer.StandInChatTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class WorkloadRequestsTests {

	private static Workload workload(String shape) {
		return WorkloadParser.parse("""
				name: gen
				seed: 3
				cluster: {pods: 1}
				arrival: {type: poisson, rate: 1}
				requests: 20
				shape: %s
				""".formatted(shape));
	}

	@Test
	void sharedPrefixRequestsShareTheirGroupsSystemPromptAndHaveTheRequestedTokens() {
		Workload workload = workload("{type: shared-prefix, groups: 2, prompts-per-group: 5, system-prompt-len: 100, "
				+ "question-len: 10, output-len: 7}");
		WorkloadRequests requests = new WorkloadRequests(workload);

		long sharing = 0;
		String first = requests.request(0).messages().get(0).content();
		for (int i = 0; i < 10; i++) {
			BenchRequest request = requests.request(i);
			assertThat(request.messages().get(0).content()).hasSize(400);
			assertThat(request.messages().get(1).content()).hasSize(40);
			assertThat(request.outputTokens()).isEqualTo(7);
			sharing += request.messages().get(0).content().equals(first) ? 1 : 0;
		}
		assertThat(sharing).as("one full pass holds each group's 5 prompts").isEqualTo(5);
	}

	@Test
	void theSameSeedGivesTheSameRequestWhateverWasGeneratedBefore() {
		Workload workload = workload("{type: random, prompt-len: {mean: 50, stddev: 10}, output-len: 5}");
		BenchRequest direct = new WorkloadRequests(workload).request(17);
		WorkloadRequests sequential = new WorkloadRequests(workload);
		for (int i = 0; i < 17; i++) {
			sequential.request(i);
		}
		assertThat(sequential.request(17)).isEqualTo(direct);
	}

	@Test
	void gatewayPromptTextSeparatesRolesAsTheGatewayDoes() {
		Workload workload = workload("{type: random, prompt-len: 2, output-len: 5}");
		BenchRequest request = new WorkloadRequests(workload).request(0);
		String content = request.messages().get(0).content();

		assertThat(request.gatewayPromptText()).isEqualTo("\u001euser\u001f" + content);
		assertThat(request.engineTokens()).hasSize(StandInChatTemplate.render(request.messages()).length() / 4);
	}

	@Test
	void aConversationsTurnHoldsEveryEarlierTurnAndReply() {
		Workload workload = WorkloadParser.parse("""
				name: chat
				cluster: {pods: 1}
				arrival: {type: poisson, rate: 1}
				requests: 6
				shape: {type: multi-turn, conversations: 2, turns: 3, system-prompt-len: 8, user-turn-len: 10,
				        output-len: 5, think-time-ms: 250}
				""");
		Conversation conversation = new WorkloadRequests(workload).conversation(1);

		BenchRequest third = conversation.turn(2);
		assertThat(third.messages()).extracting(StandInChatTemplate.Message::role)
			.containsExactly("system", "user", "assistant", "user", "assistant", "user");
		assertThat(third.messages().subList(0, 4)).isEqualTo(conversation.turn(1).messages());
		assertThat(third.messages().get(2).content()).hasSize(5 * 4);
		assertThat(third.sessionKey()).isEqualTo("conversation-1");
		assertThat(third.gatewayPromptText()).startsWith(conversation.turn(1).gatewayPromptText());
		assertThat(conversation.thinkMicrosAfter(0)).isEqualTo(250_000);
	}
	@Test
	void tenantsAreDrawnByShareFromTheSeedAndTheIdAlone() {
		Workload workload = WorkloadParser.parse("""
				name: gen
				seed: 3
				cluster: {pods: 1}
				arrival: {type: poisson, rate: 1}
				requests: 20
				tenants: {flood: {share: 10}, quiet: {share: 1}, other: {share: 1}}
				shape: {type: random, prompt-len: 10, output-len: 5}
				""");
		WorkloadRequests requests = new WorkloadRequests(workload);
		int draws = 12_000;

		Map<String, Integer> counts = new HashMap<>();
		for (int id = 0; id < draws; id++) {
			counts.merge(requests.tenant(id).name(), 1, Integer::sum);
		}

		assertThat(counts.get("flood")).isCloseTo(10_000, within(300));
		assertThat(counts.get("quiet")).isCloseTo(1_000, within(100));
		assertThat(counts.get("other")).isCloseTo(1_000, within(100));
		assertThat(new WorkloadRequests(workload).tenant(4321)).as("the same tenant for an id, whatever came before")
			.isEqualTo(requests.tenant(4321));
		assertThat(new WorkloadRequests(workload("{type: random, prompt-len: 10, output-len: 5}")).tenant(0))
			.as("no tenants named, no tenant").isNull();
	}
}
