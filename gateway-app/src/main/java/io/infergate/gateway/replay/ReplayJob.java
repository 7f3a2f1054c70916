package io.infergate.gateway.replay;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What one dashboard replay run does, as the gateway hands it to its replay process ({@link ReplayWorkerCommand}):
 * the capture files holding the window, the window, the bounds, and per choice the profile and the engine
 * properties it replays with ({@link EngineProperties}). Written as a properties file that only the gateway and
 * the process it starts read.
 *
 * @param files the capture files, in name order
 * @param fromMs the window's start, epoch ms, inclusive
 * @param toMs the window's end, epoch ms, exclusive
 * @param maxRequests the routed requests the window may hold at most
 * @param cpuShare the share of one core the process keeps to
 * @param yieldAbove the share of the machine's processors others may use before the process waits
 * @param choices what each replay runs
 */
record ReplayJob(List<Path> files, long fromMs, long toMs, int maxRequests, double cpuShare, double yieldAbove,
		List<Choice> choices) {

	/** One replay: the profile, and the engine's properties. */
	record Choice(String profile, Map<String, String> engine) {
	}

	void write(Path target) throws IOException {
		Properties properties = new Properties();
		for (int i = 0; i < files.size(); i++) {
			properties.setProperty("file." + i, files.get(i).toAbsolutePath().toString());
		}
		properties.setProperty("from-ms", Long.toString(fromMs));
		properties.setProperty("to-ms", Long.toString(toMs));
		properties.setProperty("max-requests", Integer.toString(maxRequests));
		properties.setProperty("cpu-share", Double.toString(cpuShare));
		properties.setProperty("yield-above", Double.toString(yieldAbove));
		for (int i = 0; i < choices.size(); i++) {
			Choice choice = choices.get(i);
			properties.setProperty("choice." + i + ".profile", choice.profile());
			for (Map.Entry<String, String> entry : choice.engine().entrySet()) {
				properties.setProperty("choice." + i + ".engine." + entry.getKey(), entry.getValue());
			}
		}
		try (Writer writer = Files.newBufferedWriter(target, StandardCharsets.UTF_8)) {
			properties.store(writer, null);
		}
	}

	/** Reads what {@link #write} wrote; a missing or malformed entry is an {@link IllegalArgumentException}. */
	static ReplayJob read(Path source) throws IOException {
		Properties properties = new Properties();
		try (Reader reader = Files.newBufferedReader(source, StandardCharsets.UTF_8)) {
			properties.load(reader);
		}
		List<Path> files = new ArrayList<>();
		for (int i = 0; properties.containsKey("file." + i); i++) {
			files.add(Path.of(properties.getProperty("file." + i)));
		}
		List<Choice> choices = new ArrayList<>();
		for (int i = 0; properties.containsKey("choice." + i + ".profile"); i++) {
			String prefix = "choice." + i + ".engine.";
			Map<String, String> engine = new LinkedHashMap<>();
			for (String name : properties.stringPropertyNames()) {
				if (name.startsWith(prefix)) {
					engine.put(name.substring(prefix.length()), properties.getProperty(name));
				}
			}
			choices.add(new Choice(properties.getProperty("choice." + i + ".profile"), engine));
		}
		if (files.isEmpty() || choices.isEmpty()) {
			throw new IllegalArgumentException("the job names no capture file or no choice");
		}
		return new ReplayJob(files, Long.parseLong(required(properties, "from-ms")),
				Long.parseLong(required(properties, "to-ms")), Integer.parseInt(required(properties, "max-requests")),
				Double.parseDouble(required(properties, "cpu-share")),
				Double.parseDouble(required(properties, "yield-above")), choices);
	}

	private static String required(Properties properties, String name) {
		String value = properties.getProperty(name);
		if (value == null) {
			throw new IllegalArgumentException("the job has no " + name);
		}
		return value;
	}
}
