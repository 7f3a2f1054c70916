package io.infergate.sim.http;

import java.util.ArrayList;
import java.util.List;

import io.infergate.kvevents.AllBlocksCleared;
import io.infergate.kvevents.BlockStored;
import io.infergate.kvevents.KvCacheEvent;
import io.infergate.kvevents.KvEventCodec;
import io.infergate.kvevents.KvEventFrames;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.PrefixBlockHasher;
import io.infergate.sim.kvevents.KvEventPublisher;
import io.infergate.simtokenizer.StandInChatTemplate;
import io.infergate.simtokenizer.StandInTokenizer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

import static org.assertj.core.api.Assertions.assertThat;

/** A served request's blocks reach a ZeroMQ subscriber as vLLM's events; a reset clears them. */
class KvEventsHttpTests {

	private final ZContext client = new ZContext();

	private SimulatedModelServer server;

	@AfterEach
	void close() {
		client.close();
		if (server != null) {
			server.close();
		}
	}

	@Test
	void aChatRequestsBlocksArePublishedAndAResetClearsThem() {
		server = new SimulatedModelServer(SimulatorConfig.builder("test-model")
			.engine(EngineConfig.builder().perfProfile(PerfProfile.ZERO).build())
			.kvEventsPort(0)
			.build()).start();
		ZMQ.Socket sub = client.createSocket(SocketType.SUB);
		sub.setHandshakeIvl(KvEventPublisher.HANDSHAKE_MILLIS);
		sub.connect("tcp://127.0.0.1:" + server.kvEventsPort());
		sub.subscribe(new byte[0]);
		sub.setReceiveTimeOut(200);
		SimHttpClient http = new SimHttpClient(server);
		String content = "a question long enough to fill a few blocks of sixteen tokens each, ".repeat(8);

		// a subscription takes effect asynchronously: repeat the (cached, then silent) request until events arrive
		List<KvCacheEvent> events = new ArrayList<>();
		for (int attempt = 0; attempt < 150 && events.isEmpty(); attempt++) {
			assertThat(server.resetPrefixCache()).isTrue();
			assertThat(http.post("/v1/chat/completions", SimHttpClient.chatBody("test-model", content, 1, false))
				.statusCode()).isEqualTo(200);
			events.addAll(receiveEvents(sub));
			events.removeIf(AllBlocksCleared.class::isInstance);
		}

		int[] tokens = StandInTokenizer
			.encode(StandInChatTemplate.render(List.of(new StandInChatTemplate.Message("user", content))));
		assertThat(events).singleElement().isInstanceOfSatisfying(BlockStored.class, (stored) -> assertThat(
				stored.blockHashes()).containsExactly(PrefixBlockHasher.hashFullBlocks(tokens, 16, null)));
		assertThat(http.post("/reset_prefix_cache", "").statusCode()).isEqualTo(200);
		assertThat(receiveEvents(sub)).containsExactly(AllBlocksCleared.INSTANCE);
	}

	@Test
	void resetAnswersMethodNotAllowedForGet() {
		server = new SimulatedModelServer(SimulatorConfig.builder("test-model").build()).start();

		assertThat(new SimHttpClient(server).get("/reset_prefix_cache").statusCode()).isEqualTo(405);
	}

	private static List<KvCacheEvent> receiveEvents(ZMQ.Socket sub) {
		List<KvCacheEvent> events = new ArrayList<>();
		byte[] topic;
		while ((topic = sub.recv()) != null) {
			assertThat(topic).isEmpty();
			KvEventFrames.sequence(sub.recv());
			events.addAll(KvEventCodec.decode(sub.recv()).events());
		}
		return events;
	}
}
