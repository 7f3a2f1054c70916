package io.infergate.bench.requestpath;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

import io.infergate.routing.openai.ResponseUsage;

/**
 * The gateway's work on each SSE event of a streamed chat completion, as a model server sends it (one event per
 * buffer): reading one stream of 64 content events and the usage chunk with {@link ResponseUsage}, once with the
 * usage chunk relayed (the client asked for it) and once removed (the gateway asked). Per stream; divide by 65 for
 * per event. Only the starter's public API, so it compiles against earlier builds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StreamEventBenchmark {

	private static final DefaultDataBufferFactory BUFFERS = DefaultDataBufferFactory.sharedInstance;

	@Param({ "false", "true" })
	public boolean removeUsageChunk;

	private byte[][] events;

	@Setup
	public void setUp() {
		events = new byte[65][];
		for (int i = 0; i < 64; i++) {
			events[i] = ("data: {\"id\":\"chatcmpl-8a1f2c3d4e5f\",\"object\":\"chat.completion.chunk\",\"created\":"
					+ "1733480000,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":"
					+ "{\"content\":\" token" + i + "\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n")
				.getBytes(StandardCharsets.UTF_8);
		}
		events[64] = ("data: {\"id\":\"chatcmpl-8a1f2c3d4e5f\",\"object\":\"chat.completion.chunk\",\"created\":"
				+ "1733480000,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[],\"usage\":"
				+ "{\"prompt_tokens\":812,\"total_tokens\":876,\"completion_tokens\":64}}\n\n")
			.getBytes(StandardCharsets.UTF_8);
	}

	@Benchmark
	public long readStream() {
		ResponseUsage usage = new ResponseUsage(removeUsageChunk);
		long relayed = 0;
		for (byte[] event : events) {
			DataBuffer out = usage.readEvents(BUFFERS.wrap(event), BUFFERS);
			relayed += out.readableByteCount();
		}
		return relayed + usage.tokens(800, true).outputTokens();
	}
}
