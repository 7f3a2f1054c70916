package io.infergate.gateway.warmup;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.resources.LoopResources;

import io.infergate.sim.SimulatedModelServer;
import io.infergate.sim.SimulatorConfig;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;

/**
 * The warm-up's model servers: loopback HTTP servers answering with what one simulated vLLM pod answered once
 * (its {@code /metrics}, its {@code /v1/models}, a chat completion and a streamed one), so the warm-up's CPU goes
 * to the gateway's request path rather than to simulating a model. They run on event loops of their own, so they
 * outlive the throwaway gateway context, whose closing releases Reactor Netty's shared loops.
 */
final class RecordedPods implements AutoCloseable {

	private static final Duration RECORDING_TIMEOUT = Duration.ofSeconds(10);

	private final LoopResources loops = LoopResources.create("infergate-warmup-pod", 1, true);

	private final List<DisposableServer> servers = new ArrayList<>();

	private final Recording recording;

	private RecordedPods(Recording recording) {
		this.recording = recording;
	}

	/** Records one simulated pod serving {@code baseModel} and {@code adapter}, then starts {@code count} servers. */
	static RecordedPods start(int count, String baseModel, String adapter) {
		RecordedPods pods = new RecordedPods(record(baseModel, adapter));
		try {
			for (int i = 0; i < count; i++) {
				pods.servers.add(HttpServer.create()
					.host("127.0.0.1")
					.port(0)
					.runOn(pods.loops)
					.handle(pods::answer)
					.bindNow(RECORDING_TIMEOUT));
			}
			return pods;
		}
		catch (RuntimeException ex) {
			pods.close();
			throw ex;
		}
	}

	List<String> baseUrls() {
		return this.servers.stream().map((server) -> "http://127.0.0.1:" + server.port()).toList();
	}

	private Mono<Void> answer(HttpServerRequest request, HttpServerResponse response) {
		String path = request.path();
		if (request.method().name().equals("GET") && path.equals("metrics")) {
			return send(response, "text/plain; version=0.0.4; charset=utf-8", this.recording.metrics());
		}
		if (request.method().name().equals("GET") && path.equals("v1/models")) {
			return send(response, "application/json", this.recording.models());
		}
		if (request.method().name().equals("POST") && path.equals("v1/chat/completions")) {
			return request.receive().aggregate().asString(StandardCharsets.UTF_8).defaultIfEmpty("").flatMap((body) -> {
				if (body.contains("\"stream\":true")) {
					response.header(HttpHeaderNames.CONTENT_TYPE, "text/event-stream");
					return response.sendString(Flux.fromIterable(this.recording.streamEvents())).then();
				}
				return send(response, "application/json", this.recording.completion());
			});
		}
		return response.status(HttpResponseStatus.NOT_FOUND)
			.header(HttpHeaderNames.CONTENT_TYPE, "application/json")
			.sendString(Mono.just("{\"error\":{\"message\":\"not recorded\",\"type\":\"NotFoundError\"}}"))
			.then();
	}

	private static Mono<Void> send(HttpServerResponse response, String contentType, String body) {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		return response.header(HttpHeaderNames.CONTENT_TYPE, contentType)
			.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(bytes.length))
			.sendByteArray(Mono.just(bytes))
			.then();
	}

	@Override
	public void close() {
		for (DisposableServer server : this.servers) {
			server.disposeNow(Duration.ofSeconds(5));
		}
		this.servers.clear();
		this.loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).block(Duration.ofSeconds(10));
	}

	/** What one simulated pod answered; a stream is kept as its SSE events, to be sent one write each. */
	record Recording(String metrics, String models, String completion, List<String> streamEvents) {
	}

	private static Recording record(String baseModel, String adapter) {
		EngineConfig engine = EngineConfig.builder()
			.perfProfile(PerfProfile.ZERO)
			.loraModules(List.of(adapter))
			.maxLoras(1)
			.build();
		try (SimulatedModelServer pod = new SimulatedModelServer(
				SimulatorConfig.builder(baseModel).port(0).engine(engine).build()).start()) {
			HttpClient client = HttpClient.newBuilder().connectTimeout(RECORDING_TIMEOUT).build();
			String base = pod.baseUrl();
			String request = "{\"model\":\"" + baseModel + "\",\"max_tokens\":8,\"stream\":%s,\"messages\":"
					+ "[{\"role\":\"user\",\"content\":\"Name three prime numbers.\"}]}";
			String stream = call(client, post(base, String.format(request, true)));
			List<String> events = new ArrayList<>();
			for (String event : stream.split("\n\n")) {
				if (!event.isBlank()) {
					events.add(event + "\n\n");
				}
			}
			return new Recording(call(client, get(base, "/metrics")), call(client, get(base, "/v1/models")),
					call(client, post(base, String.format(request, false))), List.copyOf(events));
		}
	}

	private static HttpRequest get(String base, String path) {
		return HttpRequest.newBuilder(URI.create(base + path)).timeout(RECORDING_TIMEOUT).build();
	}

	private static HttpRequest post(String base, String body) {
		return HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
			.timeout(RECORDING_TIMEOUT)
			.header("content-type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
	}

	private static String call(HttpClient client, HttpRequest request) {
		try {
			HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				throw new IllegalStateException("the recorded pod answered " + request.uri().getPath() + " with "
						+ response.statusCode());
			}
			return response.body();
		}
		catch (IOException ex) {
			throw new IllegalStateException("the recorded pod did not answer " + request.uri().getPath(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while recording a pod", ex);
		}
	}
}
