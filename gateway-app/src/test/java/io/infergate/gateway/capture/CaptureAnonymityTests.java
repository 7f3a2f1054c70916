package io.infergate.gateway.capture;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.support.GatewayContexts;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.auth.ApiKeyHash;
import io.infergate.sim.SimulatedModelServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a capture gives away, over random traffic through two gateways with the same configuration: no 8-byte run
 * of any prompt, API key, tenant name or header value; no hash shared between the two captures; and within one
 * capture, two prompts sharing about 1,000 tokens of prefix share exactly the block hashes of that prefix.
 */
class CaptureAnonymityTests {

	static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?-äöüßéñ漢字日本語";

	static final String ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

	static final int KEYS = 6;

	static final int REQUESTS = 60;

	/** Characters {@code PromptText} puts before a chat message's content: separator, role, separator. */
	static final int MESSAGE_PREFIX_CHARS = 2 + "user".length();

	static final Sims sims = new Sims();

	@TempDir
	Path first;

	@TempDir
	Path second;

	@AfterAll
	static void stopSims() {
		sims.close();
	}

	@Test
	void aCaptureHoldsNoPromptKeyTenantOrHeaderAndNoHashOfAnotherCapture() {
		SimulatedModelServer pod = sims.start("llama");
		Traffic traffic = new Traffic(new Random(20261206));

		byte[] firstCapture = capture(pod, traffic, first);
		byte[] secondCapture = capture(pod, traffic, second);

		Set<Long> windows = windows(firstCapture);
		windows.addAll(windows(secondCapture));
		for (String secret : traffic.secrets()) {
			assertThat(shared(windows(utf8(secret)), windows)).as("runs of an API key").isEmpty();
		}
		for (String value : traffic.valuesNeverCaptured()) {
			assertThat(shared(windows(utf8(value)), windows)).as("runs of " + value).isEmpty();
		}
		List<JsonNode> firstRecords = CaptureFilesReader.records(first);
		List<JsonNode> secondRecords = CaptureFilesReader.records(second);
		assertThat(firstRecords).hasSize(REQUESTS + 2);
		assertThat(secondRecords).hasSize(REQUESTS + 2);
		assertThat(hashes(firstRecords)).hasSizeGreaterThan(REQUESTS);
		assertThat(shared(hashes(firstRecords), hashes(secondRecords))).isEmpty();
		for (List<JsonNode> records : List.of(firstRecords, secondRecords)) {
			List<String> a = blocks(record(records, Traffic.SHARED_PREFIX_A));
			List<String> b = blocks(record(records, Traffic.SHARED_PREFIX_B));
			int shared = (MESSAGE_PREFIX_CHARS + Traffic.SHARED_PREFIX_CHARS) / 64;
			assertThat(a.subList(0, shared)).isEqualTo(b.subList(0, shared));
			for (int block = shared; block < Math.min(a.size(), b.size()); block++) {
				assertThat(a.get(block)).isNotEqualTo(b.get(block));
			}
		}
	}

	private static byte[] capture(SimulatedModelServer pod, Traffic traffic, Path directory) {
		List<String> arguments = new ArrayList<>(List.of("--infergate.pools.llama.endpoints=" + pod.baseUrl(),
				"--infergate.models.llama.pool=llama", "--infergate.models.llama.target-model=llama",
				"--infergate.capture.enabled=true", "--infergate.capture.directory=" + directory,
				"--infergate.auth.enabled=true"));
		for (int i = 0; i < KEYS; i++) {
			arguments.add("--infergate.auth.keys." + traffic.keyIds.get(i) + ".sha256="
					+ ApiKeyHash.sha256Hex(traffic.secrets.get(i)));
			arguments.add("--infergate.auth.keys." + traffic.keyIds.get(i) + ".tenant=" + traffic.tenants.get(i));
		}
		ConfigurableApplicationContext gateway = GatewayContexts.start(arguments.toArray(String[]::new));
		try {
			for (Traffic.Request request : traffic.requests) {
				HttpRequest.Builder http = HttpRequest.newBuilder(URI.create(GatewayContexts.url(gateway, "/v1/chat/completions")))
					.timeout(Duration.ofSeconds(30))
					.header("Content-Type", "application/json")
					.header("Authorization", "Bearer " + traffic.secrets.get(request.key()))
					.header("x-session-id", request.sessionId())
					.header("x-note", request.note())
					.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama", request.prompt(), request.stream(),
							request.maxTokens())));
				assertThat(Http.send(http.build()).statusCode()).isEqualTo(200);
			}
		}
		finally {
			gateway.close();
		}
		return CaptureFilesReader.bytes(directory);
	}

	private static JsonNode record(List<JsonNode> records, int maxTokens) {
		return records.stream().filter((record) -> record.get("maxTokens").asInt() == maxTokens).findFirst().orElseThrow();
	}

	private static List<String> blocks(JsonNode record) {
		List<String> blocks = new ArrayList<>();
		record.get("blocks").forEach((hash) -> blocks.add(hash.asString()));
		return blocks;
	}

	private static Set<String> hashes(List<JsonNode> records) {
		Set<String> hashes = new HashSet<>();
		for (JsonNode record : records) {
			hashes.add(record.get("tenant").asString());
			hashes.add(record.get("key").asString());
			hashes.addAll(blocks(record));
		}
		return hashes;
	}

	private static <T> Set<T> shared(Set<T> some, Set<T> others) {
		Set<T> shared = new HashSet<>(some);
		shared.retainAll(others);
		return shared;
	}

	/** Every run of 8 bytes, as a long. */
	private static Set<Long> windows(byte[] bytes) {
		Set<Long> windows = new HashSet<>();
		for (int start = 0; start + 8 <= bytes.length; start++) {
			long window = 0;
			for (int i = 0; i < 8; i++) {
				window = (window << 8) | (bytes[start + i] & 0xff);
			}
			windows.add(window);
		}
		return windows;
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/** Random keys, tenants and requests, the same for both gateways. */
	static final class Traffic {

		/** {@code max_tokens} of the two requests sharing a prefix, which no other request uses. */
		static final int SHARED_PREFIX_A = 7;

		static final int SHARED_PREFIX_B = 8;

		/** About 1,000 tokens. */
		static final int SHARED_PREFIX_CHARS = 4000;

		final List<String> keyIds = new ArrayList<>();

		final List<String> secrets = new ArrayList<>();

		final List<String> tenants = new ArrayList<>();

		final List<Request> requests = new ArrayList<>();

		Traffic(Random random) {
			for (int i = 0; i < KEYS; i++) {
				keyIds.add("key-" + text(random, ID_ALPHABET, 12));
				secrets.add("sk-" + text(random, ALPHABET.substring(0, 62), 40));
				tenants.add("tenant-" + text(random, ID_ALPHABET, 12));
			}
			for (int i = 0; i < REQUESTS; i++) {
				requests.add(new Request(random.nextInt(KEYS), text(random, ALPHABET, 20 + random.nextInt(2000)),
						random.nextBoolean(), 1 + random.nextInt(3), text(random, ID_ALPHABET, 24),
						text(random, ALPHABET.substring(0, 62), 32)));
			}
			String prefix = text(random, ALPHABET, SHARED_PREFIX_CHARS);
			requests.add(new Request(0, prefix + "A" + text(random, ALPHABET, 640), false, SHARED_PREFIX_A,
					text(random, ID_ALPHABET, 24), text(random, ALPHABET.substring(0, 62), 32)));
			requests.add(new Request(1, prefix + "B" + text(random, ALPHABET, 640), true, SHARED_PREFIX_B,
					text(random, ID_ALPHABET, 24), text(random, ALPHABET.substring(0, 62), 32)));
		}

		List<String> secrets() {
			return secrets;
		}

		/** Key ids, tenants, prompts and header values. */
		List<String> valuesNeverCaptured() {
			List<String> values = new ArrayList<>(keyIds);
			values.addAll(tenants);
			for (Request request : requests) {
				values.add(request.prompt());
				values.add(request.sessionId());
				values.add(request.note());
			}
			return values;
		}

		private static String text(Random random, String alphabet, int length) {
			StringBuilder text = new StringBuilder(length);
			for (int i = 0; i < length; i++) {
				text.append(alphabet.charAt(random.nextInt(alphabet.length())));
			}
			return text.toString();
		}

		record Request(int key, String prompt, boolean stream, int maxTokens, String sessionId, String note) {
		}
	}
}
