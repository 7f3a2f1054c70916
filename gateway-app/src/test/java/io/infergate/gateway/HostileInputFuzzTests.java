package io.infergate.gateway;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.Sims;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.PoolFlowReport;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.engine.PerfProfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Properties of the gateway under generated hostile input, against two simulated pods: whatever body, content type,
 * headers, method and path a client sends, the answer is never a 5xx, an HTML page or a stack trace, and once it is
 * in, nothing is left in flight. A failure shrinks to the smallest case that still fails and prints it: every
 * generated value describes itself in a line (the sizes of its long parts rather than the parts), and jqwik prints
 * the seed that reproduces the run ({@code @Property(seed = "...")}).
 * <p>
 * jqwik runs these properties, not Jupiter, so the gateway is started once for the class in jqwik's container
 * lifecycle rather than by {@code @SpringBootTest}.
 */
class HostileInputFuzzTests {

	private static final int MAX_BODY_BYTES = 256 * 1024;

	private static final List<String> API_PATHS = List.of("/v1/chat/completions", "/v1/completions",
			"/v1/embeddings", "/v1/responses", "/tokenize", "/v1/score");

	private static final Sims sims = new Sims();

	private static ConfigurableApplicationContext gateway;

	private static int port;

	@BeforeContainer
	static void startGateway() {
		SimulatedModelServer a = sims.start("llama", PerfProfile.ZERO, (engine) -> {
		});
		SimulatedModelServer b = sims.start("llama", PerfProfile.ZERO, (engine) -> {
		});
		gateway = new SpringApplicationBuilder(InfergateGatewayApplication.class).run("--server.port=0",
				"--management.server.port=0", "--infergate.demo.enabled=false",
				"--infergate.pools.p.endpoints=" + Sims.urls(a, b), "--infergate.models.alias.pool=p",
				"--infergate.models.alias.target-model=llama",
				"--infergate.gateway.max-body-size=" + (MAX_BODY_BYTES / 1024) + "KB");
		port = ((WebServerApplicationContext) gateway).getWebServer().getPort();
		EndpointRegistry registry = gateway.getBean(EndpointRegistry.class);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> registry.pool("p").endpoints().stream().allMatch(Endpoint::isReady));
	}

	@AfterContainer
	static void stopGateway() {
		if (gateway != null) {
			gateway.close();
		}
		sims.close();
	}

	@Property(tries = 2000)
	void noBodyIsAnswered5xxAndNothingIsLeftInFlight(@ForAll("apiPaths") String path,
			@ForAll("bodies") Body body, @ForAll("contentTypes") String contentType) {
		HttpRequest.Builder request = request("POST", path, body);
		if (!contentType.isEmpty()) {
			request.header("Content-Type", contentType);
		}

		assertAnsweredSafely(request.build(), 200, 400, 404);
	}

	@Property(tries = 800)
	void noHeadersAreAnswered5xxAndNothingIsLeftInFlight(@ForAll("apiPaths") String path,
			@ForAll("headerSets") HeaderSet headers, @ForAll("chats") Chat chat) {
		HttpRequest.Builder request = request("POST", path, Body.of(chat)).header("Content-Type", "application/json");
		headers.headers().forEach((header) -> request.header(header.name(), header.value()));

		assertAnsweredSafely(request.build(), 200, 431);
	}

	@Property(tries = 400)
	void noMethodOrPathIsAnswered5xxAndNothingIsLeftInFlight(@ForAll("methods") String method,
			@ForAll("hostilePaths") String path, @ForAll("chats") Chat chat) {
		HttpRequest.Builder request = request(method, path, Body.of(chat)).header("Content-Type", "application/json");

		assertAnsweredSafely(request.build(), 405);
	}

	private static HttpRequest.Builder request(String method, String path, Body body) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.method(method, HttpRequest.BodyPublishers.ofByteArray(body.bytes()));
	}

	/**
	 * Sends {@code request}: it is answered without a 5xx, HTML or a stack trace, and leaves nothing in flight. Over
	 * all tries of the property, each of the {@code reached} statuses must occur, so that the generated cases keep
	 * reaching the model servers and the gateway's checks rather than all failing the same way.
	 */
	private static void assertAnsweredSafely(HttpRequest request, int... reached) {
		HttpResponse<String> response = Http.send(request);

		assertAnsweredWithout5xx(response);
		assertNothingLeftInFlight();
		Statistics.label("status").collect(response.statusCode());
		Statistics.label("status").coverage((coverage) -> {
			for (int status : reached) {
				coverage.check(status).count((count) -> count > 0);
			}
		});
	}

	private static void assertAnsweredWithout5xx(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isLessThan(500);
		if (response.statusCode() >= 400) {
			assertThat(response.body()).as("a client error says what was wrong, in JSON")
				.doesNotContainIgnoringCase("<html")
				.doesNotContain("Exception")
				.doesNotContain("\tat ");
		}
	}

	private static void assertNothingLeftInFlight() {
		EndpointRegistry registry = gateway.getBean(EndpointRegistry.class);
		FlowController flowControl = gateway.getBeanProvider(FlowController.class).getIfAvailable();
		await().atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
			.untilAsserted(() -> {
				for (Endpoint endpoint : registry.pool("p").endpoints()) {
					assertThat(endpoint.inFlightRequests()).as(endpoint + " requests in flight").isZero();
					assertThat(endpoint.inFlightTokens()).as(endpoint + " tokens in flight").isZero();
				}
				PoolFlowReport flow = (flowControl != null) ? flowControl.report("p") : null;
				if (flow != null) {
					assertThat(flow.inFlightRequests()).as("flow control's requests in flight").isZero();
					assertThat(flow.queuedRequests()).as("flow control's queued requests").isZero();
				}
			});
	}

	@Provide
	Arbitrary<String> apiPaths() {
		return Arbitraries.of(API_PATHS);
	}

	/** API paths, and paths that are almost API paths or hostile in their own right. */
	@Provide
	Arbitrary<String> hostilePaths() {
		Arbitrary<String> near = Arbitraries.of(API_PATHS)
			.flatMap((path) -> Arbitraries.of(path, path + "/", path.toUpperCase(), path.replace("/v1/", "/v1//"),
					path + "?stream=true&model=alias", path + "/%2e%2e/%2e%2e/actuator/env", path + "%00",
					path + "/" + "x".repeat(3000), escapedLastLetter(path)));
		Arbitrary<String> others = Arbitraries.of("/", "/v1", "/v1/", "/v1/models", "/v1/models/alias",
				"/v1/models/%ff%fe", "/actuator/health", "/admin", "/v2/chat/completions", "/%c0%ae%c0%ae/etc/passwd",
				"/v1/chat/completions;jsessionid=1");
		return Arbitraries.oneOf(Arbitraries.of(API_PATHS), near, others);
	}

	/** {@code /v1/chat/completion%73}: the same path to a path pattern, another one to the raw path. */
	private static String escapedLastLetter(String path) {
		return path.substring(0, path.length() - 1) + "%" + Integer.toHexString(path.charAt(path.length() - 1));
	}

	@Provide
	Arbitrary<String> methods() {
		return Arbitraries.of("GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "POST", "PROPFIND",
				"QUERY");
	}

	/** Content types a client may send with a JSON body; the empty string is none at all. */
	@Provide
	Arbitrary<String> contentTypes() {
		return Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just("application/json")),
				Tuple.of(4, Arbitraries.of("", "application/json; charset=utf-8", "application/json; charset=utf-16",
						"application/json; charset=iso-8859-1", "application/json; charset=\"", "text/plain",
						"application/x-www-form-urlencoded", "multipart/form-data; boundary=zz", "application/xml",
						"*/*", "application/", ";;;=", "application/json; " + "a=b; ".repeat(400))),
				Tuple.of(1, Arbitraries.strings().withCharRange('!', '~').ofMaxLength(60)));
	}

	@Provide
	Arbitrary<Chat> chats() {
		Arbitrary<Fragment> model = Arbitraries.frequencyOf(
				Tuple.of(6, Arbitraries.of("llama", "alias").map(Fragment::string)),
				Tuple.of(3, Arbitraries.of("", "unknown-model", "ALIAS", "alias ", "llama\u0000", "al\u0131as")
					.map(Fragment::string)),
				Tuple.of(1, Arbitraries.just(new Fragment("\"al\\u0069as\" (alias with an escape)", "\"al\\u0069as\""))),
				Tuple.of(1, Arbitraries.integers().between(300, 8000)
					.map((length) -> new Fragment("a model name of " + length + " 'm's",
							"\"" + "m".repeat(length) + "\""))),
				Tuple.of(2, Arbitraries.strings().all().ofMaxLength(30).map(Fragment::string)));
		Arbitrary<String> content = Arbitraries.oneOf(Arbitraries.strings().alpha().numeric().withChars(' ').ofMaxLength(200),
				Arbitraries.strings().all().ofMaxLength(200));
		return Combinators.combine(model, Arbitraries.of(false, true), Arbitraries.integers().between(0, 5), content)
			.as((m, stream, maxTokens, text) -> Chat.of(m, stream, maxTokens, Fragment.string(text)));
	}

	/** Request bodies: valid, nearly valid, or hostile in one of the ways JSON parsers and body rewrites fail. */
	@Provide
	Arbitrary<Body> bodies() {
		Arbitrary<Chat> chats = chats();
		return Arbitraries.frequencyOf(Tuple.of(4, chats.map(Body::of)), Tuple.of(2, truncated(chats)),
				Tuple.of(2, encoded(chats)), Tuple.of(2, hugeNumbers(chats)), Tuple.of(2, longNames(chats)),
				Tuple.of(2, deepNesting(chats)), Tuple.of(2, invalidUtf8(chats)), Tuple.of(3, wrongTypes(chats)),
				Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(2000)
					.map((bytes) -> new Body(bytes.length + " random bytes", bytes))),
				Tuple.of(1, Arbitraries.of("", " ", "null", "[]", "\"chat\"", "1e999", "{}", "{\"model\":\"alias\"}",
						"{\"model\":\"alias\"}{\"model\":\"alias\"}", "{\"model\":\"alias\",}", "\uFEFF{\"model\":\"alias\"}")
					.map((text) -> new Body("the body " + Fragment.quote(text), utf8(text)))),
				Tuple.of(1, chats.map((chat) -> new Body("twice: " + chat, utf8(chat.json() + chat.json())))));
	}

	private static Arbitrary<Body> truncated(Arbitrary<Chat> chats) {
		return Combinators.combine(chats, Arbitraries.doubles().between(0, 1)).as((chat, fraction) -> {
			String json = chat.json();
			int length = (int) (json.length() * fraction * 0.999);
			return new Body(chat + " cut after " + length + " of " + json.length() + " characters",
					utf8(json.substring(0, length)));
		});
	}

	private static Arbitrary<Body> encoded(Arbitrary<Chat> chats) {
		Arbitrary<Charset> charsets = Arbitraries.of(StandardCharsets.UTF_16, StandardCharsets.UTF_16LE,
				StandardCharsets.UTF_16BE, Charset.forName("UTF-32BE"), Charset.forName("UTF-32LE"),
				StandardCharsets.ISO_8859_1, Charset.forName("windows-1252"));
		return Combinators.combine(chats, charsets)
			.as((chat, charset) -> new Body(chat + " in " + charset.name(), chat.json().getBytes(charset)));
	}

	private static Arbitrary<Body> hugeNumbers(Arbitrary<Chat> chats) {
		Arbitrary<String> fields = Arbitraries.of("max_tokens", "temperature", "n", "top_p", "seed", "priority");
		Arbitrary<String> shapes = Arbitraries.of("", "-", "0.", "1e", "-1e-");
		return Combinators.combine(chats, fields, shapes, Arbitraries.integers().between(20, 20_000))
			.as((chat, field, shape, digits) -> Body.of(chat.with(field,
					new Fragment(shape + "<" + digits + " nines>", shape + "9".repeat(digits)))));
	}

	private static Arbitrary<Body> longNames(Arbitrary<Chat> chats) {
		return Combinators.combine(chats, Arbitraries.integers().between(100, 100_000))
			.as((chat, length) -> Body.of(chat.with("k".repeat(length), new Fragment("1", "1"))));
	}

	private static Arbitrary<Body> deepNesting(Arbitrary<Chat> chats) {
		Arbitrary<String> fields = Arbitraries.of("tools", "messages", "response_format", "metadata", "stop", "input",
				"prompt");
		return Combinators.combine(chats, fields, Arbitraries.of("[", "{\"a\":"), Arbitraries.integers().between(1, 5000),
				Arbitraries.of(true, false))
			.as((chat, field, open, depth, closed) -> {
				String close = open.equals("[") ? "]" : "}";
				String value = open.repeat(depth) + "1" + (closed ? close.repeat(depth) : "");
				String described = depth + " x " + open + (closed ? " closed" : " never closed");
				return Body.of(chat.with(field, new Fragment(described, value)));
			});
	}

	private static Arbitrary<Body> invalidUtf8(Arbitrary<Chat> chats) {
		Arbitrary<byte[]> sequences = Arbitraries.of(new byte[] { (byte) 0xC3 }, new byte[] { (byte) 0xFF, (byte) 0xFE },
				new byte[] { (byte) 0xED, (byte) 0xA0, (byte) 0x80 },
				new byte[] { (byte) 0xC0, (byte) 0xAF }, new byte[] { (byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80 },
				new byte[] { (byte) 0x80 }, new byte[] { 0 });
		return Combinators.combine(chats, sequences, Arbitraries.doubles().between(0, 1))
			.as((chat, sequence, fraction) -> {
				byte[] bytes = utf8(chat.json());
				int at = (int) (bytes.length * fraction);
				ByteArrayOutputStream out = new ByteArrayOutputStream();
				out.write(bytes, 0, at);
				out.write(sequence, 0, sequence.length);
				out.write(bytes, at, bytes.length - at);
				return new Body(chat + " with bytes " + hex(sequence) + " at " + at, out.toByteArray());
			});
	}

	/** A field the gateway reads, given a value of the wrong type or range. */
	private static Arbitrary<Body> wrongTypes(Arbitrary<Chat> chats) {
		Map<String, List<String>> wrong = new LinkedHashMap<>();
		wrong.put("model", List.of("null", "1", "[]", "{}", "true", "[\"alias\"]"));
		wrong.put("stream", List.of("\"true\"", "1", "null", "{}", "[true]"));
		wrong.put("messages", List.of("{}", "\"hi\"", "[1]", "[null]", "[{\"role\":1,\"content\":[]}]",
				"[{\"role\":\"user\",\"content\":{\"text\":1}}]", "[{\"role\":\"user\",\"content\":[{\"type\":\"text\"}]}]",
				"null"));
		wrong.put("max_tokens", List.of("\"8\"", "-1", "1.5", "1e400", "null", "[]", "-9223372036854775809"));
		wrong.put("stream_options", List.of("\"x\"", "{\"include_usage\":\"yes\"}", "[]", "null"));
		wrong.put("prompt", List.of("1", "[1,2,3]", "[[1],[2]]", "{}", "null"));
		wrong.put("input", List.of("1", "[[1],[2]]", "{}", "null"));
		wrong.put("user", List.of("1", "{}", "[]"));
		wrong.put("n", List.of("0", "-1", "\"2\"", "100000"));
		Arbitrary<Map.Entry<String, String>> replacements = Arbitraries.of(wrong.entrySet()
			.stream()
			.flatMap((entry) -> entry.getValue().stream().map((value) -> Map.entry(entry.getKey(), value)))
			.toList());
		return Combinators.combine(chats, replacements)
			.as((chat, replacement) -> Body.of(chat.with(replacement.getKey(),
					new Fragment(replacement.getValue(), replacement.getValue()))));
	}

	/** Few or many headers, of any size, including ones the gateway itself reads or must not forward. */
	@Provide
	Arbitrary<HeaderSet> headerSets() {
		Arbitrary<String> names = Arbitraries.strings()
			.withChars("abcdefghijklmnopqrstuvwxyz0123456789-_!#$%&'*+.^`|~")
			.ofMinLength(1)
			.ofMaxLength(40)
			.map((name) -> "x-" + name);
		Arbitrary<String> values = Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(40).map(String::strip);
		Arbitrary<Header> random = Combinators.combine(names, values).as(Header::new);
		Arbitrary<Header> known = Combinators.combine(Arbitraries.of("authorization", "api-key", "proxy-authorization",
				"te", "trailer", "keep-alive", "proxy-connection", "x-infergate-priority", "x-infergate-queue-ttl-ms",
				"x-infergate-session", "x-forwarded-for", "forwarded", "traceparent", "tracestate", "accept",
				"accept-encoding", "cookie", "openai-organization", "x-request-id", "user-agent"),
				Arbitraries.oneOf(values, Arbitraries.of("-1", "99999999999999999999", "NaN", "text/html", "gzip, br",
						"Bearer ", "Bearer sk-" + "a".repeat(100), "00-zz-zz-01", "for=\"[::1]:x\"", "trailers")))
			.as(Header::new);
		Arbitrary<Header> oversized = Combinators.combine(names, Arbitraries.integers().between(1_000, 70_000))
			.as((name, length) -> new Header(name, "v".repeat(length)));
		Arbitrary<Header> any = Arbitraries.frequencyOf(Tuple.of(6, random), Tuple.of(3, known), Tuple.of(1, oversized));
		return Arbitraries.frequencyOf(Tuple.of(5, any.list().ofMaxSize(8)),
				Tuple.of(2, random.list().ofMinSize(50).ofMaxSize(400)),
				Tuple.of(2, Combinators.combine(any.list().ofMaxSize(4), oversized).as((headers, big) -> {
					List<Header> all = new ArrayList<>(headers);
					all.add(big);
					return all;
				})))
			.map(HeaderSet::new);
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String hex(byte[] bytes) {
		StringBuilder hex = new StringBuilder();
		for (byte b : bytes) {
			hex.append(String.format("%02X", b));
		}
		return hex.toString();
	}

	/** A JSON value and how it reads in a report: long values by their size, not their text. */
	record Fragment(String description, String json) {

		private static final int SHOWN_CHARS = 60;

		static Fragment string(String text) {
			return new Fragment(quote(text), "\"" + escaped(text) + "\"");
		}

		/** {@code text} quoted for a report: shortened, with control characters and non-ASCII escaped. */
		static String quote(String text) {
			String shown = (text.length() > SHOWN_CHARS) ? text.substring(0, SHOWN_CHARS) : text;
			String escaped = escaped(shown).chars()
				.mapToObj((c) -> (c < 0x20 || c > 0x7E) ? String.format("\\u%04x", c) : String.valueOf((char) c))
				.collect(Collectors.joining());
			return "\"" + escaped + "\"" + ((text.length() > SHOWN_CHARS) ? "... (" + text.length() + " chars)" : "");
		}

		/** JSON string content: quotes, backslashes and control characters escaped, the rest left as it is. */
		private static String escaped(String text) {
			StringBuilder escaped = new StringBuilder(text.length());
			text.chars().forEach((c) -> {
				if (c == '"' || c == '\\') {
					escaped.append('\\').append((char) c);
				}
				else if (c < 0x20) {
					escaped.append(String.format("\\u%04x", c));
				}
				else {
					escaped.append((char) c);
				}
			});
			return escaped.toString();
		}

		@Override
		public String toString() {
			return description;
		}
	}

	/** A request body for every API path, field by field, so that a field can be replaced or added. */
	record Chat(Map<String, Fragment> fields) {

		static Chat of(Fragment model, boolean stream, int maxTokens, Fragment content) {
			Map<String, Fragment> fields = new LinkedHashMap<>();
			fields.put("model", model);
			fields.put("stream", new Fragment(Boolean.toString(stream), Boolean.toString(stream)));
			fields.put("max_tokens", new Fragment(Integer.toString(maxTokens), Integer.toString(maxTokens)));
			fields.put("messages", new Fragment("[{user: " + content + "}]",
					"[{\"role\":\"user\",\"content\":" + content.json() + "}]"));
			fields.put("prompt", content);
			fields.put("input", content);
			fields.put("text_1", Fragment.string("a"));
			fields.put("text_2", Fragment.string("b"));
			return new Chat(fields);
		}

		/** This body with {@code field} set to {@code value}: replaced where it is, or added first. */
		Chat with(String field, Fragment value) {
			Map<String, Fragment> changed = new LinkedHashMap<>();
			if (!fields.containsKey(field)) {
				changed.put(field, value);
			}
			fields.forEach((name, old) -> changed.put(name, name.equals(field) ? value : old));
			return new Chat(changed);
		}

		String json() {
			return fields.entrySet()
				.stream()
				.map((field) -> "\"" + field.getKey() + "\":" + field.getValue().json())
				.collect(Collectors.joining(",", "{", "}"));
		}

		@Override
		public String toString() {
			return fields.entrySet()
				.stream()
				.map((field) -> Fragment.quote(field.getKey()) + ": " + field.getValue())
				.collect(Collectors.joining(", ", "{", "}"));
		}
	}

	/** The bytes of a request body and what they are. */
	record Body(String description, byte[] bytes) {

		static Body of(Chat chat) {
			return new Body(chat.toString(), utf8(chat.json()));
		}

		@Override
		public String toString() {
			return description + " [" + bytes.length + " bytes]";
		}
	}

	record Header(String name, String value) {

		@Override
		public String toString() {
			return name + ": " + Fragment.quote(value);
		}
	}

	record HeaderSet(List<Header> headers) {

		@Override
		public String toString() {
			return (headers.size() > 12)
					? headers.size() + " headers, " + headers.stream().mapToInt((h) -> h.name().length() + h.value().length()).sum()
							+ " characters: " + headers.subList(0, 3) + "..."
					: headers.toString();
		}
	}
}
