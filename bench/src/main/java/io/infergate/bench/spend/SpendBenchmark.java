package io.infergate.bench.spend;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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

import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.model.ConfiguredModels;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.model.ServedModelRoutes;
import io.infergate.routing.model.StickyBy;
import io.infergate.routing.openai.ResponseUsage;
import io.infergate.routing.spend.Costs;
import io.infergate.routing.spend.Price;

/**
 * What pricing adds to one request, in process: reading a JSON response's {@code usage} (with its
 * {@code prompt_tokens_details}, which the gateway now parses for cached prompt tokens), and then, for a priced model,
 * the cost at the running configuration's price and one counter increment (what {@code SpendMeters} does per
 * request once its counter exists).
 * <ul>
 * <li>{@code usageOnly}: the usage read and the tokens taken, as every request did before prices;</li>
 * <li>{@code usageAndCost}: the same, then the price looked up, the cost computed and counted.</li>
 * </ul>
 * {@code priced=false} measures the lookup of a model with no price (no cost, no counter).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SpendBenchmark {

	private static final byte[] RESPONSE = ("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"llama\","
			+ "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"The quick brown fox jumps\"},"
			+ "\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":1024,\"completion_tokens\":8,"
			+ "\"total_tokens\":1032,\"prompt_tokens_details\":{\"cached_tokens\":768}}}")
		.getBytes(StandardCharsets.UTF_8);

	@Param({ "true", "false" })
	public boolean priced;

	private Costs costs;

	private Counter counter;

	private String model;

	@Setup
	public void setUp() {
		Map<String, ModelProperties.Model> models = new LinkedHashMap<>();
		for (int i = 0; i < 20; i++) {
			models.put("model-" + i, new ModelProperties.Model("pool", null, null, null, List.of(), StickyBy.NONE,
					List.of(), List.of(), priced ? new Price(0.15, 0.075, 0.6) : null));
		}
		ModelCatalog catalog = new ModelCatalog(new ConfiguredModels(new ModelProperties(models), Set.of("pool")),
				ServedModelRoutes.NONE);
		costs = new Costs(catalog, "USD");
		counter = new SimpleMeterRegistry().counter("gen_ai.client.cost", "model", "model-7");
		model = "model-7";
	}

	@Benchmark
	public TokenUsage usageOnly() {
		return usage();
	}

	@Benchmark
	public double usageAndCost() {
		double cost = costs.cost(model, usage());
		if (cost > 0) {
			counter.increment(cost);
		}
		return cost;
	}

	private static TokenUsage usage() {
		ResponseUsage usage = new ResponseUsage(false);
		DataBuffer buffer = DefaultDataBufferFactory.sharedInstance.wrap(RESPONSE);
		usage.readJson(buffer);
		return usage.tokens(1000, true);
	}
}
