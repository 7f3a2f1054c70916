package io.infergate.bench.requestpath;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.util.unit.DataSize;

import io.infergate.routing.flowcontrol.FlowControlProperties;
import io.infergate.routing.flowcontrol.FlowControlProperties.BandPolicy;
import io.infergate.routing.flowcontrol.FlowControlProperties.Detector;
import io.infergate.routing.flowcontrol.FlowControlProperties.Fairness;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.FlowTicket;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.OpenAiRequestParser;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;

/**
 * Two in-process steps of every request on the gateway's path, built only from the routing starter's public API so
 * that the same benchmark compiles against earlier builds: parsing a chat completion body (about 2 KB, the fields
 * the gateway needs), and one request through flow control while the pool has room (enqueue, dispatched at once,
 * release), with three tenants in one band under token fairness.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RequestPathBenchmark {

	private static final Caller[] CALLERS = { new Caller("k1", "a", 0, 1.0), new Caller("k2", "b", 0, 1.0),
			new Caller("k3", "c", 0, 1.0) };

	private final OpenAiRequestParser parser = new OpenAiRequestParser();

	private byte[] chatBody;

	private FlowController flowControl;

	private int next;

	@Setup
	public void setUp() {
		StringBuilder messages = new StringBuilder();
		for (int i = 0; i < 8; i++) {
			messages.append((i > 0) ? "," : "")
				.append("{\"role\":\"")
				.append((i % 2 == 0) ? "user" : "assistant")
				.append("\",\"content\":\"")
				.append("A sentence of an ordinary conversation, long enough to be typical. ".repeat(3))
				.append("\"}");
		}
		chatBody = ("{\"model\":\"llama\",\"stream\":true,\"max_tokens\":256,\"temperature\":0.7,\"messages\":["
				+ messages + "]}").getBytes(StandardCharsets.UTF_8);
		PoolProperties.Pool pool = PoolProperties.Pool.of(List.of(URI.create("http://10.0.0.1:8000")), null);
		EndpointRegistry registry = new EndpointRegistry(Map.of("p", pool));
		registry.sync("p", pool.endpoints());
		registry.pool("p").endpoints().forEach((endpoint) -> endpoint.setReady(true));
		FlowControlProperties properties = new FlowControlProperties(true, Detector.CONCURRENCY, 0, 0,
				BandPolicy.STRICT, Map.of(), Fairness.TOKENS, 1000, DataSize.ofMegabytes(256), 1000,
				DataSize.ofMegabytes(128), Duration.ofSeconds(30), Duration.ofMinutes(5), Duration.ofMillis(10));
		flowControl = new FlowController(registry, (ready, requests, tokens, now) -> true, properties,
				Clock.systemUTC(), new SimpleMeterRegistry());
	}

	@Benchmark
	public ParsedRequest parseChatBody() throws Exception {
		return parser.parse(chatBody, InferenceApi.CHAT_COMPLETIONS);
	}

	@Benchmark
	public FlowTicket flowControlEnqueueAndRelease() {
		FlowTicket ticket = flowControl.enqueue("p", CALLERS[next++ % CALLERS.length], 512, 256, 2048, null);
		ticket.release(400);
		return ticket;
	}
}
