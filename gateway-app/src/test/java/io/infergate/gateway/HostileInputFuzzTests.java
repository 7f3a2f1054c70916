package io.infergate.gateway;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPodsTest;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Properties of the gateway under generated hostile input: whatever body and headers a client sends, the answer is
 * never a 5xx, and once every answer is in, nothing is left in flight. Cases are generated from fixed seeds, so a
 * failure names the seed and case that reproduce it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.models.alias.pool=p", "infergate.models.alias.target-model=llama",
				"infergate.gateway.max-body-size=256KB" })
class HostileInputFuzzTests extends SimulatedPodsTest {

	private static final long[] SEEDS = { 1L, 16L, 2026L };

	private static final int CASES_PER_SEED = 120;

	private static final String[] PATHS = { "/v1/chat/completions", "/v1/completions", "/v1/embeddings",
			"/v1/responses", "/tokenize", "/v1/score" };

	private static final String[] MODELS = { "llama", "alias", "", "unknown-model", "al\\u0069as", "llama\u0000",
			"m".repeat(5_000) };

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		SimulatedModelServer a = sims.start("llama", PerfProfile.ZERO, (engine) -> {
		});
		SimulatedModelServer b = sims.start("llama", PerfProfile.ZERO, (engine) -> {
		});
		registry.add("infergate.pools.p.endpoints", () -> Sims.urls(a, b));
	}

	@BeforeEach
	void ready() {
		awaitReady("p");
	}

	@Test
	void noClientInputIsAnswered5xxAndNothingIsLeftInFlight() {
		List<String> serverErrors = new ArrayList<>();
		Set<Integer> statuses = new TreeSet<>();
		int answered = 0;
		for (long seed : SEEDS) {
			Random random = new Random(seed);
			for (int i = 0; i < CASES_PER_SEED; i++) {
				HttpRequest request = hostileRequest(random);
				HttpResponse<String> response = Http.send(request);
				answered++;
				statuses.add(response.statusCode());
				if (response.statusCode() >= 500) {
					serverErrors.add("seed " + seed + " case " + i + ": " + response.statusCode() + " " + response.body());
				}
			}
		}

		assertThat(answered).isEqualTo(SEEDS.length * CASES_PER_SEED);
		assertThat(serverErrors).isEmpty();
		assertThat(statuses).as("the cases reach the model servers and are refused at the gateway")
			.contains(200, 400, 404);
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			for (Endpoint endpoint : endpoints.pool("p").endpoints()) {
				assertThat(endpoint.inFlightRequests()).as(endpoint.toString()).isZero();
				assertThat(endpoint.inFlightTokens()).as(endpoint.toString()).isZero();
			}
		});
	}

	private HttpRequest hostileRequest(Random random) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(pick(random, PATHS))))
			.timeout(Duration.ofSeconds(30))
			.POST(HttpRequest.BodyPublishers.ofByteArray(body(random)));
		request.header("Content-Type", random.nextInt(4) == 0 ? randomToken(random, 12) : "application/json");
		int headers = random.nextInt(4) == 0 ? random.nextInt(150) : random.nextInt(8);
		for (int i = 0; i < headers; i++) {
			request.header("x-" + randomToken(random, 1 + random.nextInt(20)), randomHeaderValue(random));
		}
		return request.build();
	}

	/** A body that is valid, nearly valid, or hostile in one of the ways parsers and rewrites fail. */
	private static byte[] body(Random random) {
		String model = pick(random, MODELS);
		boolean stream = random.nextBoolean();
		String valid = "{\"model\":\"" + model + "\",\"stream\":" + stream + ",\"max_tokens\":" + random.nextInt(6)
				+ ",\"messages\":[{\"role\":\"user\",\"content\":\"" + randomText(random, random.nextInt(200)) + "\"}],"
				+ "\"prompt\":\"p\",\"input\":\"i\",\"text_1\":\"a\",\"text_2\":\"b\"}";
		List<Function<Random, byte[]>> kinds = List.of(
				(r) -> utf8(valid),
				(r) -> utf8(valid.substring(0, r.nextInt(valid.length()))),
				(r) -> encoded(valid, pick(r, new Charset[] { StandardCharsets.UTF_16, StandardCharsets.UTF_16LE,
						Charset.forName("UTF-32BE") })),
				(r) -> utf8(valid.replace("\"max_tokens\":", "\"max_tokens\":" + "9".repeat(2_000 + r.nextInt(3_000)))),
				(r) -> utf8(valid.replace("\"stream\":", "\"" + "k".repeat(60_000) + "\":1,\"stream\":")),
				(r) -> utf8(valid.replace("\"prompt\":\"p\"", "\"tools\":" + "[".repeat(1_000 + r.nextInt(3_000))
						+ "]".repeat(1_000 + r.nextInt(3_000)))),
				(r) -> withInvalidUtf8(valid, r),
				(r) -> randomBytes(r, r.nextInt(2_000)),
				(r) -> utf8(valid.replace("\"stream\":" + stream, "\"stream\":\"" + stream + "\"")),
				(r) -> utf8(valid.replace("[{\"role\"", "{\"role\"").replace("}],", "},")),
				(r) -> utf8(valid.replace("\"model\":\"" + model + "\"", "\"model\":" + pick(r,
						new String[] { "null", "1", "[]", "{}", "\"a\",\"model\":\"b\"" }))),
				(r) -> utf8(valid.replace("\"max_tokens\":", "\"max_tokens\":-")),
				(r) -> utf8(""),
				(r) -> utf8(valid + valid));
		return kinds.get(random.nextInt(kinds.size())).apply(random);
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] encoded(String text, Charset charset) {
		return text.getBytes(charset);
	}

	private static byte[] withInvalidUtf8(String text, Random random) {
		byte[] bytes = utf8(text);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		int at = bytes.length / 2;
		out.write(bytes, 0, at);
		byte[][] invalid = { { (byte) 0xC3 }, { (byte) 0xFF, (byte) 0xFE }, { (byte) 0xED, (byte) 0xA0, (byte) 0x80 },
				{ (byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80 } };
		byte[] chosen = invalid[random.nextInt(invalid.length)];
		out.write(chosen, 0, chosen.length);
		out.write(bytes, at, bytes.length - at);
		return out.toByteArray();
	}

	private static byte[] randomBytes(Random random, int length) {
		byte[] bytes = new byte[length];
		random.nextBytes(bytes);
		return bytes;
	}

	private static String randomText(Random random, int length) {
		StringBuilder text = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			int kind = random.nextInt(10);
			if (kind == 0) {
				text.append("\\u").append(String.format("%04x", random.nextInt(0x10000)));
			}
			else if (kind == 1) {
				text.appendCodePoint(0x80 + random.nextInt(0x10FFFF - 0x80 - 0x800));
			}
			else {
				text.append((char) ('a' + random.nextInt(26)));
			}
		}
		// unpaired surrogates and stray code points are JSON escapes above; raw ones must stay encodable
		return text.toString().replaceAll("[\\uD800-\\uDFFF\"\\\\]", "x");
	}

	private static String randomToken(Random random, int length) {
		String chars = "abcdefghijklmnopqrstuvwxyz0123456789-_!#$%&'*+.^`|~";
		StringBuilder token = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			token.append(chars.charAt(random.nextInt(chars.length())));
		}
		return token.toString();
	}

	private static String randomHeaderValue(Random random) {
		StringBuilder value = new StringBuilder();
		int length = random.nextInt(4) == 0 ? random.nextInt(300) : random.nextInt(20);
		for (int i = 0; i < length; i++) {
			value.append((char) (0x21 + random.nextInt(0x5E)));
		}
		return value.toString();
	}

	private static <T> T pick(Random random, T[] values) {
		return values[random.nextInt(values.length)];
	}
}
