package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.RecordingRelay;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.PriorityConvention;
import io.infergate.sim.engine.SchedulingPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The request's priority reaches the engine, end to end on simulated pods behind relays that record what the gateway
 * forwards: in vLLM's convention (lower first) for a pool with {@code engine-priority: vllm}, in SGLang's (higher
 * first) for {@code sglang}, and not at all for {@code none}, whose FIFO engine refuses any priority but 0. Engines
 * scheduling by priority then serve an important request ahead of a flood of earlier ones.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false", "infergate.auth.enabled=true",
				"infergate.flow-control.enabled=false", "infergate.auth.keys.interactive.tenant=interactive",
				"infergate.auth.keys.interactive.priority=2", "infergate.auth.keys.batch.tenant=batch",
				"infergate.auth.keys.batch.priority=0", "infergate.pools.v.engine-priority=vllm",
				"infergate.pools.s.engine-priority=sglang", "infergate.models.llama-v.pool=v",
				"infergate.models.llama-v.target-model=llama", "infergate.models.llama-s.pool=s",
				"infergate.models.llama-s.target-model=llama", "infergate.models.llama-n.pool=n",
				"infergate.models.llama-n.target-model=llama" })
class EnginePriorityTests extends SimulatedPods {

	private static final String INTERACTIVE = "sk-interactive-0123456789";

	private static final String BATCH = "sk-batch-0123456789";

	static SimulatedModelServer vllmPod;

	static SimulatedModelServer sglangPod;

	static RecordingRelay vllmRelay;

	static RecordingRelay sglangRelay;

	static RecordingRelay fifoRelay;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		vllmPod = sims.start("llama", PerfProfile.LLAMA_3_1_8B_H100,
				(engine) -> engine.maxNumSeqs(1).schedulingPolicy(SchedulingPolicy.PRIORITY));
		sglangPod = sims.start("llama", PerfProfile.LLAMA_3_1_8B_H100, (engine) -> engine.maxNumSeqs(1)
			.schedulingPolicy(SchedulingPolicy.PRIORITY)
			.priorityConvention(PriorityConvention.SGLANG));
		SimulatedModelServer fifoPod = sims.start("llama");
		vllmRelay = new RecordingRelay(vllmPod.baseUrl());
		sglangRelay = new RecordingRelay(sglangPod.baseUrl());
		fifoRelay = new RecordingRelay(fifoPod.baseUrl());
		registry.add("infergate.pools.v.endpoints", vllmRelay::baseUrl);
		registry.add("infergate.pools.s.endpoints", sglangRelay::baseUrl);
		registry.add("infergate.pools.n.endpoints", fifoRelay::baseUrl);
		registry.add("infergate.auth.keys.interactive.sha256", () -> ApiKeyHash.sha256Hex(INTERACTIVE));
		registry.add("infergate.auth.keys.batch.sha256", () -> ApiKeyHash.sha256Hex(BATCH));
	}

	@AfterAll
	static void closeRelays() {
		vllmRelay.close();
		sglangRelay.close();
		fifoRelay.close();
	}

	@BeforeEach
	void podsAreReady() {
		awaitEveryPoolReady();
	}

	private CompletableFuture<HttpResponse<String>> chat(String secret, String body) {
		HttpRequest request = HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.timeout(Duration.ofSeconds(60))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + secret)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		return Http.client().sendAsync(request, HttpResponse.BodyHandlers.ofString());
	}

	private static String chatBody(String model, int maxTokens, String extra) {
		return "{\"model\":\"" + model + "\"," + extra + "\"max_tokens\":" + maxTokens
				+ ",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}";
	}

	private static String lastBody(RecordingRelay relay) {
		List<String> bodies = relay.generationBodies();
		return bodies.get(bodies.size() - 1);
	}

	@Test
	void eachPoolsEngineIsToldThePriorityInItsOwnConventionAndAFifoEngineNone() {
		assertThat(chat(BATCH, chatBody("llama-v", 2, "")).join().statusCode()).isEqualTo(200);
		assertThat(lastBody(vllmRelay)).startsWith("{\"priority\":-15,\"model\":\"llama\",\"max_tokens\":2,");
		assertThat(chat(INTERACTIVE, chatBody("llama-v", 2, "")).join().statusCode()).isEqualTo(200);
		assertThat(lastBody(vllmRelay)).startsWith("{\"priority\":-47,");

		assertThat(chat(INTERACTIVE, chatBody("llama-s", 2, "")).join().statusCode()).isEqualTo(200);
		assertThat(lastBody(sglangRelay)).startsWith("{\"priority\":47,\"model\":\"llama\",");

		// the FIFO engine answers 400 to any priority but 0: the client's is taken out, the rest left as sent
		HttpResponse<String> fifo = chat(BATCH, chatBody("llama-n", 2, "\"priority\":-3, ")).join();
		assertThat(fifo.statusCode()).as(fifo.body()).isEqualTo(200);
		assertThat(lastBody(fifoRelay)).isEqualTo(
				"{\"model\":\"llama\",\"max_tokens\":2,\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}");
	}

	@Test
	void aClientsOwnPriorityLowersItsKeysButNeverRaisesIt() {
		assertThat(chat(INTERACTIVE, chatBody("llama-v", 2, "\"priority\":7,")).join().statusCode()).isEqualTo(200);
		assertThat(lastBody(vllmRelay)).startsWith("{\"model\":\"llama\",\"priority\":-47,");
		assertThat(chat(INTERACTIVE, chatBody("llama-v", 2, "\"priority\":1,")).join().statusCode()).isEqualTo(200);
		assertThat(lastBody(vllmRelay)).startsWith("{\"model\":\"llama\",\"priority\":-31,");
		assertThat(chat(INTERACTIVE, chatBody("llama-s", 2, "\"priority\":-2,")).join().statusCode()).isEqualTo(200);
		assertThat(lastBody(sglangRelay)).startsWith("{\"model\":\"llama\",\"priority\":-17,");
	}

	@Test
	void aPriorityThatIsNotAnIntegerInRangeGets400NamingTheField() {
		int relayed = vllmRelay.generationBodies().size();
		for (String bad : List.of("\"high\"", "1.5", "2000000")) {
			HttpResponse<String> response = chat(BATCH, chatBody("llama-v", 2, "\"priority\":" + bad + ",")).join();
			assertThat(response.statusCode()).isEqualTo(400);
			assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(
					(type) -> assertThat(type).startsWith("application/json"));
			assertThat(response.body()).contains("\"type\":\"invalid_request_error\"")
				.contains("\"param\":\"priority\"")
				.contains("'priority' must be an integer from -1000000 to 1000000.");
		}
		assertThat(vllmRelay.generationBodies()).hasSize(relayed);
	}

	@Test
	void aVllmEngineSchedulingByPriorityServesTheImportantRequestBeforeAnEarlierFlood() {
		assertImportantOvertakesFlood("llama-v", vllmPod);
	}

	@Test
	void anSglangEngineSchedulingByPriorityServesTheImportantRequestBeforeAnEarlierFlood() {
		assertImportantOvertakesFlood("llama-s", sglangPod);
	}

	private void assertImportantOvertakesFlood(String model, SimulatedModelServer pod) {
		ConcurrentLinkedQueue<String> finished = new ConcurrentLinkedQueue<>();
		CompletableFuture<HttpResponse<String>> running = chat(BATCH, chatBody(model, 300, ""));
		await().atMost(Duration.ofSeconds(10)).until(() -> pod.metrics().numRequestsRunning() == 1);
		List<CompletableFuture<HttpResponse<String>>> flood = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			flood.add(chat(BATCH, chatBody(model, 10, "")).whenComplete((response, ex) -> finished.add("batch")));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> pod.metrics().numRequestsWaiting() == 4);
		CompletableFuture<HttpResponse<String>> important = chat(INTERACTIVE, chatBody(model, 10, ""))
			.whenComplete((response, ex) -> finished.add("interactive"));
		await().atMost(Duration.ofSeconds(10)).until(() -> pod.metrics().numRequestsWaiting() == 5);

		assertThat(important.join().statusCode()).isEqualTo(200);
		flood.forEach((response) -> assertThat(response.join().statusCode()).isEqualTo(200));
		assertThat(running.join().statusCode()).isEqualTo(200);
		assertThat(List.copyOf(finished)).containsExactly("interactive", "batch", "batch", "batch", "batch");
	}
}
