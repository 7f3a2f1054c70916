package io.infergate.bench.metrics;

import java.util.concurrent.TimeUnit;

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

import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.metrics.EngineMapping;
import io.infergate.routing.metrics.PrometheusSamples;
import io.infergate.routing.metrics.PrometheusTextParser;

/**
 * What one scrape costs the scraper after the bytes arrive: parsing a ~30 KB vLLM V1 exposition
 * ({@link VllmExposition}) and mapping it to endpoint metrics, with the selective parser the scraper uses, and a
 * full parse for comparison.
 * <p>
 * {@code java -jar bench/target/routing-bench.jar PrometheusParseBenchmark -f 1 -wi 3 -i 5 -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PrometheusParseBenchmark {

	private byte[] exposition;

	private EngineMapping mapping;

	private PrometheusTextParser selective;

	private PrometheusTextParser full;

	@Setup
	public void setUp() {
		exposition = VllmExposition.render(42, 3, 12, 0.4213);
		mapping = EngineMapping.forEngine(EngineMapping.VLLM);
		selective = mapping.parser();
		full = PrometheusTextParser.full();
	}

	/** What the scraper does per response: selective parse, then map. */
	@Benchmark
	public EndpointMetrics selectiveParseAndMap() {
		return mapping.map(exposition, exposition.length, 16, 0);
	}

	@Benchmark
	public PrometheusSamples selectiveParse() {
		return selective.parse(exposition);
	}

	@Benchmark
	public PrometheusSamples fullParse() {
		return full.parse(exposition);
	}

	/** A full parse, then the same mapping: the cost the selective mode saves. */
	@Benchmark
	public EndpointMetrics fullParseAndMap() {
		return mapping.map(full.parse(exposition), 16, 0);
	}
}
