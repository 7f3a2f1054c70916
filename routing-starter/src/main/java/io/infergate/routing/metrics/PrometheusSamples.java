package io.infergate.routing.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@link PrometheusTextParser} read from one exposition: the samples in text order, the declared family
 * types (full parse only), and how many lines it skipped as malformed.
 *
 * @param samples the samples kept, in the order they appear
 * @param types family name to its {@code # TYPE} ({@code counter}, {@code gauge}, {@code histogram},
 * {@code summary}, {@code untyped}); empty for a selective parse, which skips comments
 * @param skippedLines malformed lines that were dropped; a selective parse only counts lines whose name it
 * selected
 */
public record PrometheusSamples(List<PrometheusSample> samples, Map<String, String> types, int skippedLines) {

	/** Suffixes the client libraries append to a family name, longest match first where one is a suffix of another. */
	private static final String[] SAMPLE_SUFFIXES = { "_total", "_created", "_bucket", "_sum", "_count", "_info" };

	public PrometheusSamples {
		samples = List.copyOf(samples);
		types = Map.copyOf(types);
	}

	/** The samples with exactly this name, in text order. */
	public List<PrometheusSample> samples(String name) {
		List<PrometheusSample> named = new ArrayList<>(4);
		for (PrometheusSample sample : samples) {
			if (sample.name().equals(name)) {
				named.add(sample);
			}
		}
		return named;
	}

	/**
	 * The family a sample name belongs to: the name itself when a {@code # TYPE} declared it, else the name
	 * without its client-library suffix ({@code _total}, {@code _created}, {@code _bucket}, {@code _sum},
	 * {@code _count}, {@code _info}) when that stem was declared, else the name itself.
	 */
	public String familyOf(String sampleName) {
		if (types.containsKey(sampleName)) {
			return sampleName;
		}
		for (String suffix : SAMPLE_SUFFIXES) {
			if (sampleName.endsWith(suffix)) {
				String stem = sampleName.substring(0, sampleName.length() - suffix.length());
				if (types.containsKey(stem)) {
					return stem;
				}
			}
		}
		return sampleName;
	}
}
