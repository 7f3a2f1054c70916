package io.infergate.bench.quality.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

import io.infergate.bench.quality.workload.Workload.Arrival;
import io.infergate.bench.quality.workload.Workload.Cluster;
import io.infergate.bench.quality.workload.Workload.LoraMix;
import io.infergate.bench.quality.workload.Workload.MultiTurn;
import io.infergate.bench.quality.workload.Workload.PodOverride;
import io.infergate.bench.quality.workload.Workload.RandomPrompts;
import io.infergate.bench.quality.workload.Workload.Shape;
import io.infergate.bench.quality.workload.Workload.SharedPrefix;
import io.infergate.bench.quality.workload.Workload.Tenant;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.SchedulingPolicy;

/**
 * Reads a workload file strictly: every key is checked, an unknown key is an error naming the valid ones, and every
 * value is checked for type and range. Errors are {@link WorkloadException}s whose message starts with the key's
 * path, e.g. {@code shape.groups: expected an integer >= 1, got 'many'}.
 */
public final class WorkloadParser {

	private WorkloadParser() {
	}

	public static Workload parse(Path file) {
		return parse(read(file));
	}

	private static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			throw new WorkloadException("no such file");
		}
		catch (IOException ex) {
			throw new WorkloadException("cannot read: " + ex.getMessage());
		}
	}

	/** The file's top-level YAML node; never null. */
	private static Object load(String yamlText) {
		Object root;
		try {
			root = new Yaml(new SafeConstructor(new LoaderOptions())).load(yamlText);
		}
		catch (YAMLException ex) {
			throw new WorkloadException("not valid YAML: " + ex.getMessage().replace('\n', ' '));
		}
		if (root == null) {
			throw new WorkloadException("the file is empty");
		}
		return root;
	}

	/**
	 * The cluster of a workload file: its {@code cluster:} section, read as a workload's; the file's other keys are
	 * not read, so a whole workload file serves as well as one holding only the cluster.
	 */
	public static Cluster parseCluster(Path file) {
		return cluster(Section.of("", load(read(file))).section("cluster"));
	}

	public static Workload parse(String yamlText) {
		Section top = Section.of("", load(yamlText));
		String name = top.string("name", null);
		long seed = top.longValue("seed", 42);
		Cluster cluster = cluster(top.section("cluster"));
		Arrival arrival = arrival(top.section("arrival"));
		int requests = top.integer("requests", null, 1);
		int warmup = top.integer("warmup", 0, 0);
		int gateways = top.integer("gateways", 1, 1);
		Shape shape = shape(top.section("shape"), cluster);
		List<Tenant> tenants = top.has("tenants") ? tenants(top.section("tenants")) : List.of();
		Boolean flowControl = top.bool("flow-control");
		top.rejectUnknownKeys();
		if (shape instanceof MultiTurn multiTurn || (shape instanceof LoraMix mix && mix.base() instanceof MultiTurn)) {
			MultiTurn turns = (shape instanceof MultiTurn direct) ? direct : (MultiTurn) ((LoraMix) shape).base();
			long available = (long) turns.conversations() * turns.turns();
			if (available < (long) requests + warmup) {
				throw new WorkloadException("shape: conversations × turns = " + available
						+ " requests, fewer than warmup + requests = " + (requests + warmup));
			}
		}
		return new Workload(name, seed, cluster, arrival, requests, warmup, gateways, shape, tenants, flowControl);
	}

	/** {@code NAME: {share: 0.7, priority: -1, weight: 1}}: share required, priority 0 and weight 1 by default. */
	private static List<Tenant> tenants(Section section) {
		List<Tenant> tenants = new ArrayList<>();
		for (String name : section.keys()) {
			Section tenant = section.section(name);
			if (name.isBlank()) {
				throw new WorkloadException(tenant.path("") + ": a tenant needs a name");
			}
			double share = tenant.positiveNumber("share", true);
			int priority = tenant.integer("priority", 0, Integer.MIN_VALUE);
			Double weight = tenant.positiveNumber("weight", false);
			tenant.rejectUnknownKeys();
			tenants.add(new Tenant(name, share, priority, (weight != null) ? weight : 1.0));
		}
		if (tenants.isEmpty()) {
			throw new WorkloadException(section.path("") + ": needs at least one tenant, or leave the key out");
		}
		return tenants;
	}

	private static Cluster cluster(Section section) {
		int pods = section.integer("pods", null, 1);
		PerfProfile profile = perfProfile(section, "perf-profile", PerfProfile.LLAMA_3_1_8B_H100);
		int kvBlocks = section.integer("kv-blocks", EngineConfig.DEFAULT_KV_BLOCKS, 1);
		int blockSize = section.integer("block-size", EngineConfig.DEFAULT_BLOCK_SIZE, 1);
		int maxNumSeqs = section.integer("max-num-seqs", EngineConfig.DEFAULT_MAX_NUM_SEQS, 1);
		int maxBatched = section.integer("max-num-batched-tokens", EngineConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1);
		int maxLoras = section.integer("max-loras", 0, 0);
		List<String> adapters = section.strings("adapters");
		if (new LinkedHashSet<>(adapters).size() != adapters.size()) {
			throw new WorkloadException(section.path("adapters") + ": an adapter is listed twice: " + adapters);
		}
		if (adapters.contains(LoraMix.NO_ADAPTER)) {
			throw new WorkloadException(section.path("adapters") + ": '" + LoraMix.NO_ADAPTER
					+ "' means the base model and cannot name an adapter");
		}
		if (!adapters.isEmpty() && maxLoras < 1) {
			throw new WorkloadException(section.path("max-loras") + ": must be at least 1 when adapters are given");
		}
		List<PodOverride> overrides = new ArrayList<>();
		List<Section> overrideSections = section.sections("overrides");
		for (Section override : overrideSections) {
			int pod = override.integer("pod", null, 0);
			if (pod >= pods) {
				throw new WorkloadException(override.path("pod") + ": pod " + pod + " does not exist (pods: " + pods
						+ ", numbered from 0)");
			}
			overrides.add(new PodOverride(pod, perfProfile(override, "perf-profile", null),
					override.integer("kv-blocks", (Integer) null, 1, true),
					override.integer("max-num-seqs", (Integer) null, 1, true),
					override.integer("max-num-batched-tokens", (Integer) null, 1, true),
					override.integer("max-loras", (Integer) null, 0, true)));
			override.rejectUnknownKeys();
		}
		SchedulingPolicy schedulingPolicy = schedulingPolicy(section);
		section.rejectUnknownKeys();
		Cluster cluster = new Cluster(pods, profile, kvBlocks, blockSize, maxNumSeqs, maxBatched, maxLoras,
				List.copyOf(adapters), List.copyOf(overrides), schedulingPolicy);
		for (int pod = 0; pod < pods; pod++) {
			try {
				cluster.engineConfig(pod);
			}
			catch (IllegalArgumentException ex) {
				throw new WorkloadException(section.path("") + ": pod " + pod + ": " + ex.getMessage());
			}
		}
		return cluster;
	}

	private static SchedulingPolicy schedulingPolicy(Section section) {
		String name = section.string("scheduling-policy", SchedulingPolicy.FCFS.cliName());
		try {
			return SchedulingPolicy.fromCliName(name);
		}
		catch (IllegalArgumentException ex) {
			throw new WorkloadException(section.path("scheduling-policy") + ": expected fcfs or priority, got '"
					+ name + "'");
		}
	}

	private static PerfProfile perfProfile(Section section, String key, PerfProfile defaultValue) {
		String name = section.string(key, defaultValue == null ? "" : defaultValue.name());
		if (name.isEmpty()) {
			return null;
		}
		try {
			return PerfProfile.named(name);
		}
		catch (IllegalArgumentException ex) {
			throw new WorkloadException(section.path(key) + ": " + ex.getMessage());
		}
	}

	private static Arrival arrival(Section section) {
		String type = section.string("type", null);
		Arrival arrival;
		switch (type) {
			case "poisson" -> {
				List<Double> ladder = section.positiveNumbers("ladder");
				Double rate = section.positiveNumber("rate", ladder.isEmpty());
				arrival = new Arrival(Arrival.Type.POISSON, rate == null ? Double.NaN : rate, 0, List.copyOf(ladder));
				section.integer("concurrency", 0, 1);
			}
			case "closed-loop" -> {
				int concurrency = section.integer("concurrency", null, 1);
				if (!section.strings("ladder").isEmpty()) {
					throw new WorkloadException(section.path("ladder") + ": a ladder of rates needs type: poisson");
				}
				section.positiveNumber("rate", false);
				arrival = new Arrival(Arrival.Type.CLOSED_LOOP, Double.NaN, concurrency, List.of());
			}
			default -> throw new WorkloadException(section.path("type") + ": expected poisson or closed-loop, got '"
					+ type + "'");
		}
		section.rejectUnknownKeys();
		return arrival;
	}

	private static Shape shape(Section section, Cluster cluster) {
		String type = section.string("type", null);
		Shape shape = switch (type) {
			case "shared-prefix" -> sharedPrefix(section);
			case "multi-turn" -> multiTurn(section);
			case "random" -> randomPrompts(section);
			case "lora-mix" -> loraMix(section, cluster);
			default -> throw new WorkloadException(section.path("type")
					+ ": expected shared-prefix, multi-turn, random or lora-mix, got '" + type + "'");
		};
		section.rejectUnknownKeys();
		return shape;
	}

	private static SharedPrefix sharedPrefix(Section section) {
		return new SharedPrefix(section.integer("groups", null, 1), section.integer("prompts-per-group", null, 1),
				section.length("system-prompt-len", null), section.length("question-len", null),
				section.length("output-len", null));
	}

	private static MultiTurn multiTurn(Section section) {
		return new MultiTurn(section.integer("conversations", null, 1), section.integer("turns", null, 1),
				section.length("system-prompt-len", Length.fixed(0)), section.length("user-turn-len", null),
				section.length("output-len", null), section.length("think-time-ms", Length.fixed(0)));
	}

	private static RandomPrompts randomPrompts(Section section) {
		return new RandomPrompts(section.length("prompt-len", null), section.length("output-len", null));
	}

	/** The base shape is the one whose keys are present: groups (shared-prefix), conversations (multi-turn), else random. */
	private static LoraMix loraMix(Section section, Cluster cluster) {
		Section weightsSection = section.section("adapter-weights");
		Map<String, Double> weights = new LinkedHashMap<>();
		double sum = 0;
		for (String adapter : weightsSection.keys()) {
			double weight = weightsSection.positiveNumber(adapter, true);
			if (!adapter.equals(LoraMix.NO_ADAPTER) && !cluster.adapters().contains(adapter)) {
				throw new WorkloadException(weightsSection.path(adapter) + ": adapter '" + adapter
						+ "' is not in cluster.adapters " + cluster.adapters() + " (use '" + LoraMix.NO_ADAPTER
						+ "' for the base model)");
			}
			weights.put(adapter, weight);
			sum += weight;
		}
		if (weights.isEmpty() || !(sum > 0)) {
			throw new WorkloadException(section.path("adapter-weights") + ": needs at least one adapter with a weight");
		}
		Shape base;
		if (section.has("groups")) {
			base = sharedPrefix(section);
		}
		else if (section.has("conversations")) {
			base = multiTurn(section);
		}
		else {
			base = randomPrompts(section);
		}
		return new LoraMix(Map.copyOf(weights), base);
	}

	/** A YAML mapping being read, which remembers the keys read so that the rest can be rejected. */
	private static final class Section {

		private final String path;

		private final Map<?, ?> values;

		private final Set<String> read = new LinkedHashSet<>();

		private Section(String path, Map<?, ?> values) {
			this.path = path;
			this.values = values;
		}

		static Section of(String path, Object value) {
			if (!(value instanceof Map<?, ?> map)) {
				throw new WorkloadException((path.isEmpty() ? "the file" : path) + ": expected a mapping of keys, got "
						+ describe(value));
			}
			for (Object key : map.keySet()) {
				if (!(key instanceof String)) {
					throw new WorkloadException((path.isEmpty() ? "" : path + ".") + key + ": keys must be strings");
				}
			}
			return new Section(path, map);
		}

		String path(String key) {
			if (key.isEmpty()) {
				return path;
			}
			return path.isEmpty() ? key : path + "." + key;
		}

		boolean has(String key) {
			return values.containsKey(key);
		}

		List<String> keys() {
			List<String> keys = new ArrayList<>();
			for (Object key : values.keySet()) {
				keys.add((String) key);
			}
			return keys;
		}

		private Object get(String key, boolean required) {
			read.add(key);
			Object value = values.get(key);
			if (value == null && required) {
				throw new WorkloadException(path(key) + ": missing");
			}
			return value;
		}

		Section section(String key) {
			return of(path(key), get(key, true));
		}

		List<Section> sections(String key) {
			Object value = get(key, false);
			if (value == null) {
				return List.of();
			}
			if (!(value instanceof List<?> list)) {
				throw new WorkloadException(path(key) + ": expected a list, got " + describe(value));
			}
			List<Section> sections = new ArrayList<>();
			for (int i = 0; i < list.size(); i++) {
				sections.add(of(path(key) + "[" + i + "]", list.get(i)));
			}
			return sections;
		}

		String string(String key, String defaultValue) {
			Object value = get(key, defaultValue == null);
			if (value == null) {
				return defaultValue;
			}
			if (value instanceof Map || value instanceof List) {
				throw new WorkloadException(path(key) + ": expected a string, got " + describe(value));
			}
			return value.toString();
		}

		List<String> strings(String key) {
			Object value = get(key, false);
			if (value == null) {
				return List.of();
			}
			if (!(value instanceof List<?> list)) {
				throw new WorkloadException(path(key) + ": expected a list, got " + describe(value));
			}
			List<String> strings = new ArrayList<>();
			for (Object item : list) {
				if (item == null || item instanceof Map || item instanceof List) {
					throw new WorkloadException(path(key) + ": expected a list of names, got " + describe(item));
				}
				strings.add(item.toString());
			}
			return strings;
		}

		/** {@code true} or {@code false}, or null when absent. */
		Boolean bool(String key) {
			Object value = get(key, false);
			if (value == null || value instanceof Boolean) {
				return (Boolean) value;
			}
			throw new WorkloadException(path(key) + ": expected true or false, got " + describe(value));
		}

		long longValue(String key, long defaultValue) {
			Object value = get(key, false);
			if (value == null) {
				return defaultValue;
			}
			if (value instanceof Integer || value instanceof Long) {
				return ((Number) value).longValue();
			}
			throw new WorkloadException(path(key) + ": expected an integer, got " + describe(value));
		}

		int integer(String key, Integer defaultValue, int minimum) {
			return integer(key, defaultValue, minimum, false);
		}

		Integer integer(String key, Integer defaultValue, int minimum, boolean optional) {
			Object value = get(key, defaultValue == null && !optional);
			if (value == null) {
				return defaultValue;
			}
			if (!(value instanceof Integer number) || number < minimum) {
				throw new WorkloadException(path(key) + ": expected an integer"
						+ ((minimum == Integer.MIN_VALUE) ? "" : " >= " + minimum) + ", got " + describe(value));
			}
			return number;
		}

		/** A number > 0, or null when absent and not required. */
		Double positiveNumber(String key, boolean required) {
			Object value = get(key, required);
			if (value == null) {
				return null;
			}
			double number = number(key, value);
			if (!(number > 0) || Double.isInfinite(number)) {
				throw new WorkloadException(path(key) + ": expected a number > 0, got " + describe(value));
			}
			return number;
		}

		List<Double> positiveNumbers(String key) {
			Object value = get(key, false);
			if (value == null) {
				return List.of();
			}
			if (!(value instanceof List<?> list)) {
				throw new WorkloadException(path(key) + ": expected a list of numbers, got " + describe(value));
			}
			List<Double> numbers = new ArrayList<>();
			for (Object item : list) {
				double number = number(key, item);
				if (!(number > 0) || Double.isInfinite(number)) {
					throw new WorkloadException(path(key) + ": expected numbers > 0, got " + describe(item));
				}
				numbers.add(number);
			}
			return numbers;
		}

		/** A number, or {@code {mean: x, stddev: y}}; lengths must be >= 0. */
		Length length(String key, Length defaultValue) {
			Object value = get(key, defaultValue == null);
			if (value == null) {
				return defaultValue;
			}
			if (value instanceof Map<?, ?>) {
				Section distribution = of(path(key), value);
				Double mean = distribution.nonNegative("mean", true);
				Double stddev = distribution.nonNegative("stddev", false);
				distribution.rejectUnknownKeys();
				return new Length(mean, stddev == null ? 0 : stddev);
			}
			return Length.fixed(nonNegative(key, value));
		}

		private Double nonNegative(String key, boolean required) {
			Object value = get(key, required);
			return value == null ? null : nonNegative(key, value);
		}

		private double nonNegative(String key, Object value) {
			double number = number(key, value);
			if (!(number >= 0) || Double.isInfinite(number)) {
				throw new WorkloadException(path(key) + ": expected a number >= 0 or {mean: x, stddev: y}, got "
						+ describe(value));
			}
			return number;
		}

		private double number(String key, Object value) {
			if (value instanceof Number number) {
				return number.doubleValue();
			}
			throw new WorkloadException(path(key) + ": expected a number, got " + describe(value));
		}

		void rejectUnknownKeys() {
			for (Object key : values.keySet()) {
				if (!read.contains(key)) {
					throw new WorkloadException(path((String) key) + ": unknown key; valid keys here: "
							+ String.join(", ", read));
				}
			}
		}

		private static String describe(Object value) {
			if (value == null) {
				return "nothing";
			}
			if (value instanceof Map) {
				return "a mapping";
			}
			if (value instanceof List) {
				return "a list";
			}
			return "'" + value + "'";
		}
	}
}
