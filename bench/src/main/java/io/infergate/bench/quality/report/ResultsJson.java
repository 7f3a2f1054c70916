package io.infergate.bench.quality.report;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@code results.json}: {@code {"workload": NAME, "policies": {POLICY: FIGURES}}}; for a ladder of rates
 * {@code {"workload": NAME, "ladder": {RATE: {"workload": NAME, "policies": {...}}}}}; for several numbers of gateway
 * replicas {@code {"workload": NAME, "gateways": {N: {"workload": NAME, "policies": {...}}}}}. Keys keep their order
 * and numbers a fixed number of decimals, so the same figures always give the same bytes; NaN is written as null.
 * <p>
 * The flow-control figures, {@code rejected}, {@code sustainedRequestsPerSec} (not per tenant) and (with tenants) {@code byTenant: {TENANT: FIGURES}}, are written when
 * asked for ({@link #showsFlowControl}): a run with flow control off and no tenants keeps the bytes it always had.
 */
public final class ResultsJson {

	private ResultsJson() {
	}

	/** One rate's figures by policy, in the order the policies were given. */
	public record RateResults(double ratePerSecond, Map<String, Figures> policies) {
	}

	public static String write(String workload, List<RateResults> rates, boolean ladder, boolean flowControl) {
		if (!ladder) {
			return write(workload, null, List.of(), List.of(rates.get(0).policies()), flowControl);
		}
		return write(workload, "ladder", rates.stream().map((rate) -> rateKey(rate.ratePerSecond())).toList(),
				rates.stream().map(RateResults::policies).toList(), flowControl);
	}

	/** One run per number of gateway replicas, keyed by the number. */
	public static String writeByGateways(String workload, Map<Integer, Map<String, Figures>> byGateways,
			boolean flowControl) {
		return write(workload, "gateways", byGateways.keySet().stream().map(String::valueOf).toList(),
				List.copyOf(byGateways.values()), flowControl);
	}

	/** Whether results show the flow-control figures: when any run had flow control on, tenants or a rejection. */
	public static boolean showsFlowControl(Collection<Map<String, Figures>> runs) {
		return runs.stream()
			.flatMap((run) -> run.values().stream())
			.anyMatch((figures) -> figures.flowControl() || !figures.byTenant().isEmpty() || figures.rejected() > 0);
	}

	/** The policies of one run, or those of several runs under {@code group}, keyed by {@code keys}. */
	private static String write(String workload, String group, List<String> keys, List<Map<String, Figures>> runs,
			boolean flowControl) {
		StringBuilder json = new StringBuilder();
		json.append("{\n  \"workload\": ").append(string(workload)).append(",\n");
		if (group == null) {
			json.append("  \"policies\": ");
			policies(json, runs.get(0), "  ", flowControl);
		}
		else {
			json.append("  ").append(string(group)).append(": {\n");
			for (int r = 0; r < runs.size(); r++) {
				json.append("    ").append(string(keys.get(r))).append(": {\n");
				json.append("      \"workload\": ").append(string(workload)).append(",\n");
				json.append("      \"policies\": ");
				policies(json, runs.get(r), "      ", flowControl);
				json.append("\n    }").append(r + 1 < runs.size() ? ",\n" : "\n");
			}
			json.append("  }");
		}
		return json.append("\n}\n").toString();
	}

	/** A rate as a JSON key or a label: {@code 40} or {@code 12.5}. */
	public static String rateKey(double rate) {
		if (rate == Math.rint(rate)) {
			return Long.toString((long) rate);
		}
		return Double.toString(rate);
	}

	private static void policies(StringBuilder json, Map<String, Figures> policies, String indent,
			boolean flowControl) {
		json.append("{\n");
		int i = 0;
		for (Map.Entry<String, Figures> entry : policies.entrySet()) {
			json.append(indent).append("  ").append(string(entry.getKey())).append(": ");
			figures(json, entry.getValue(), indent + "  ", flowControl);
			json.append(++i < policies.size() ? ",\n" : "\n");
		}
		json.append(indent).append("}");
	}

	/** One FIGURES object, opened on the current line and closed at {@code indent}. */
	private static void figures(StringBuilder json, Figures f, String indent, boolean flowControl) {
		String in = indent + "  ";
		boolean tenants = flowControl && !f.byTenant().isEmpty();
		json.append("{\n");
		field(json, in, "ttftP50Ms", number(f.ttftP50Ms(), 3), false);
		field(json, in, "ttftP90Ms", number(f.ttftP90Ms(), 3), false);
		field(json, in, "ttftP99Ms", number(f.ttftP99Ms(), 3), false);
		field(json, in, "tpotP50Ms", number(f.tpotP50Ms(), 3), false);
		field(json, in, "e2eP50Ms", number(f.e2eP50Ms(), 3), false);
		field(json, in, "e2eP99Ms", number(f.e2eP99Ms(), 3), false);
		field(json, in, "outputTokensPerSec", number(f.outputTokensPerSec(), 2), false);
		field(json, in, "requestsPerSec", number(f.requestsPerSec(), 3), false);
		field(json, in, "prefixHitRate", number(f.prefixHitRate(), 4), false);
		field(json, in, "loadSkewCv", number(f.loadSkewCv(), 4), false);
		field(json, in, "preemptions", Long.toString(f.preemptions()), false);
		field(json, in, "failed", Long.toString(f.failed()), false);
		if (flowControl) {
			field(json, in, "rejected", Long.toString(f.rejected()), false);
			if (!Double.isNaN(f.sustainedRequestsPerSec())) {
				field(json, in, "sustainedRequestsPerSec", number(f.sustainedRequestsPerSec(), 3), false);
			}
		}
		if (!Double.isNaN(f.sessionTurnsKept())) {
			field(json, in, "sessionTurnsKept", number(f.sessionTurnsKept(), 4), false);
		}
		field(json, in, "schedulerMicrosP50", number(f.schedulerMicrosP50(), 2), !tenants);
		if (tenants) {
			json.append(in).append("\"byTenant\": {\n");
			int i = 0;
			for (Map.Entry<String, Figures> tenant : f.byTenant().entrySet()) {
				json.append(in).append("  ").append(string(tenant.getKey())).append(": ");
				figures(json, tenant.getValue(), in + "  ", true);
				json.append(++i < f.byTenant().size() ? ",\n" : "\n");
			}
			json.append(in).append("}\n");
		}
		json.append(indent).append("}");
	}

	private static void field(StringBuilder json, String indent, String name, String value, boolean last) {
		json.append(indent).append('"').append(name).append("\": ").append(value).append(last ? "\n" : ",\n");
	}

	static String number(double value, int decimals) {
		if (Double.isNaN(value) || Double.isInfinite(value)) {
			return "null";
		}
		return String.format(Locale.ROOT, "%." + decimals + "f", value);
	}

	private static String string(String value) {
		StringBuilder quoted = new StringBuilder("\"");
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c == '"' || c == '\\') {
				quoted.append('\\').append(c);
			}
			else if (c < 0x20) {
				quoted.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
			}
			else {
				quoted.append(c);
			}
		}
		return quoted.append('"').toString();
	}
}
