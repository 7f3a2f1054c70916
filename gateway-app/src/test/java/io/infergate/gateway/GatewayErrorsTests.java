package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.infergate.gateway.support.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad input on the API gets an OpenAI-style JSON error with the right status, before any model server is
 * involved.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.pools.p.endpoints=http://127.0.0.1:9",
				"infergate.models.m.pool=p", "infergate.models.m.target-model=base",
				"infergate.gateway.max-body-size=1MB" })
class GatewayErrorsTests {

	@LocalServerPort
	int port;

	private String url(String path) {
		return "http://127.0.0.1:" + port + path;
	}

	@Test
	void malformedJsonIs400() {
		HttpResponse<String> response = Http.postJson(url("/v1/chat/completions"), "{\"model\":\"m\",");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("content-type")).hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		assertThat(response.body()).contains("\"type\":\"invalid_request_error\"").contains("\"code\":\"invalid_json\"");
	}

	@Test
	void missingMessagesIs400NamingTheField() {
		HttpResponse<String> response = Http.postJson(url("/v1/chat/completions"), "{\"model\":\"m\"}");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"param\":\"messages\"");
	}

	@Test
	void unknownModelIs404() {
		HttpResponse<String> response = Http.postJson(url("/v1/chat/completions"), Http.chat("nope", "hi", false, 4));

		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.body()).contains("\"code\":\"model_not_found\"").contains("\"param\":\"model\"");
	}

	@Test
	void declaredOversizedBodyIs413WithoutReadingIt() {
		byte[] body = new byte[2 * 1024 * 1024];
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/completions")))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofByteArray(body))
			.build());

		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(response.body()).contains("\"code\":\"request_too_large\"");
	}

	@Test
	void chunkedOversizedBodyIs413AsItStreamsIn() {
		// no Content-Length: the limit must hold while the body arrives
		HttpRequest.BodyPublisher chunked = HttpRequest.BodyPublishers.fromPublisher(
				HttpRequest.BodyPublishers.ofByteArrays(List.of(new byte[512 * 1024], new byte[512 * 1024],
						new byte[512 * 1024])));
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/completions")))
			.header("Content-Type", "application/json")
			.timeout(Duration.ofSeconds(30))
			.POST(chunked)
			.build());

		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(response.body()).contains("\"code\":\"request_too_large\"");
	}

	@Test
	void oversizedHeadersAre431AndAnOverlongRequestLineIs414InOpenAiShape() {
		HttpResponse<String> headers = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.header("x-padding", "p".repeat(16 * 1024))
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("m", "hi", false, 4)))
			.build());
		HttpResponse<String> line = Http.get(url("/v1/models/" + "m".repeat(8 * 1024)));

		assertThat(headers.statusCode()).isEqualTo(431);
		assertThat(headers.body()).startsWith("{\"error\":").contains("\"code\":\"request_headers_too_large\"");
		assertThat(line.statusCode()).isEqualTo(414);
		assertThat(line.body()).startsWith("{\"error\":").contains("\"code\":\"request_uri_too_long\"");
	}

	@Test
	void unknownPathIs404Json() {
		HttpResponse<String> response = Http.get(url("/v1/embeddingz"));

		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.body()).startsWith("{\"error\":").contains("unknown_url");
	}

	@Test
	void aContentTypeThatIsNotAMediaTypeIs400NotADroppedConnection() {
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "\"a/b")
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("m", "hi", false, 4)))
			.build());

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).startsWith("{\"error\":").contains("\"code\":\"invalid_content_type\"");
		assertThat(response.headers().firstValue("x-content-type-options")).hasValue("nosniff");
	}

	@Test
	void anApiPathWithMatrixParametersOrEscapedLettersIsAnUnknownUrlNotAModelRequest() {
		HttpResponse<String> matrix = Http.postJson(url("/v1/chat/completions;jsessionid=1"),
				Http.chat("m", "hi", false, 4));
		HttpResponse<String> escaped = Http.postJson(url("/v1/chat/%63ompletions"), Http.chat("m", "hi", false, 4));

		for (HttpResponse<String> response : List.of(matrix, escaped)) {
			assertThat(response.statusCode()).as(response.body()).isEqualTo(404);
			assertThat(response.body()).startsWith("{\"error\":").contains("unknown_url");
		}
	}

	@Test
	void noReadyEndpointIs503() {
		HttpResponse<String> response = Http.postJson(url("/v1/chat/completions"), Http.chat("m", "hi", false, 4));

		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.body()).contains("\"type\":\"service_unavailable\"").contains("no ready endpoint");
		assertThat(response.headers().firstValue("x-infergate-pool")).hasValue("p");
	}

	@Test
	void listsConfiguredModels() {
		HttpResponse<String> response = Http.get(url("/v1/models"));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"object\":\"list\"").contains("\"id\":\"m\"");
	}

	@Test
	void bodiesBeyondTheParserLimitsAre400InvalidJson() {
		String chat = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],";
		HttpResponse<String> deep = Http.postJson(url("/v1/chat/completions"),
				chat + "\"tools\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}");
		HttpResponse<String> longNumber = Http.postJson(url("/v1/chat/completions"),
				chat + "\"temperature\":" + "1".repeat(5_000) + "}");
		HttpResponse<String> longName = Http.postJson(url("/v1/chat/completions"),
				chat + "\"" + "n".repeat(100_000) + "\":1}");

		for (HttpResponse<String> response : List.of(deep, longNumber, longName)) {
			assertThat(response.statusCode()).isEqualTo(400);
			assertThat(response.body()).contains("\"code\":\"invalid_json\"");
		}
	}

	@Test
	void aUtf16BodyNamingAnAliasedModelIs400() {
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("m", "hi", false, 4), StandardCharsets.UTF_16))
			.build());

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"code\":\"invalid_json\"").contains("UTF-8");
	}

	@Test
	void aWrongMethodOnAnApiPathIs405NamingTheAllowedOne() {
		HttpResponse<String> getChat = Http.get(url("/v1/chat/completions"));
		HttpResponse<String> postModels = Http.postJson(url("/v1/models"), "{}");

		assertThat(getChat.statusCode()).isEqualTo(405);
		assertThat(getChat.headers().firstValue("allow")).hasValue("POST");
		assertThat(getChat.body()).startsWith("{\"error\":").contains("method_not_allowed");
		assertThat(postModels.statusCode()).isEqualTo(405);
		assertThat(postModels.headers().firstValue("allow")).hasValue("GET");
	}

	@Test
	void gatewayErrorsAreNotSniffedAndEchoAtMost256CharactersOfTheRequest() {
		HttpResponse<String> unknownPath = Http.get(url("/v1/" + "x".repeat(1_000)));
		HttpResponse<String> unknownModel = Http.postJson(url("/v1/chat/completions"),
				Http.chat("y".repeat(1_000), "hi", false, 4));
		HttpResponse<String> headers = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("x-padding", "p".repeat(16 * 1024))
			.POST(HttpRequest.BodyPublishers.ofString("{}"))
			.build());

		for (HttpResponse<String> response : List.of(unknownPath, unknownModel, headers)) {
			assertThat(response.statusCode()).isBetween(400, 499);
			assertThat(response.headers().firstValue("x-content-type-options")).hasValue("nosniff");
		}
		// 256 characters of the path the client sent: "/v1/" and 252 of its x
		assertThat(unknownPath.body()).contains("/v1/" + "x".repeat(252) + "…").doesNotContain("x".repeat(253));
		assertThat(unknownModel.body()).contains("y".repeat(256)).doesNotContain("y".repeat(257));
	}
}
