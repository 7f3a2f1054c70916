package io.infergate.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code infergate.*} property the project's own configuration and documentation set is in the Boot
 * configuration metadata, with a description: the application's and the starter's {@code application.yml} files,
 * the compose and Kubernetes configuration, and every YAML block of the READMEs and {@code docs/}. A key under a
 * map or nested property (a pool's {@code engine}, a model's {@code limits.rpm}) is resolved against the property's
 * Java type, so a misspelt key there fails too.
 */
class ConfigurationMetadataTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Pattern YAML_BLOCK = Pattern.compile("```ya?ml\\n(.*?)```", Pattern.DOTALL);

	private static final Map<String, JsonNode> properties = new LinkedHashMap<>();

	@BeforeAll
	static void readTheMetadata() throws IOException {
		ObjectMapper json = new ObjectMapper();
		for (URL url : Collections.list(ConfigurationMetadataTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				for (JsonNode property : json.readTree(in).path("properties")) {
					if (property.path("name").asString().startsWith("infergate.")) {
						properties.put(property.path("name").asString(), property);
					}
				}
			}
		}
	}

	@Test
	void everyPropertyHasADescription() {
		assertThat(properties).hasSizeGreaterThan(50);
		assertThat(properties.values().stream()
			.filter((property) -> property.path("description").asString("").isBlank())
			.map((property) -> property.path("name").asString())).isEmpty();
	}

	@Test
	void everyPropertyTheProjectSetsIsInTheMetadata() throws IOException {
		Map<String, List<List<String>>> keysByFile = new LinkedHashMap<>();
		for (Path file : configurationFiles()) {
			keysByFile.put(ROOT.relativize(file).toString(), keysOf(Files.readString(file, StandardCharsets.UTF_8)));
		}
		keysByFile.put("deploy/kubernetes/configmap.yaml", keysOf(configMapApplicationYaml()));
		for (Path file : markdownFiles()) {
			Matcher block = YAML_BLOCK.matcher(Files.readString(file, StandardCharsets.UTF_8));
			List<List<String>> keys = new ArrayList<>();
			while (block.find()) {
				keys.addAll(keysOf(block.group(1)));
			}
			keysByFile.put(ROOT.relativize(file).toString(), keys);
		}

		TreeSet<String> unknown = new TreeSet<>();
		int checked = 0;
		for (Map.Entry<String, List<List<String>>> file : keysByFile.entrySet()) {
			for (List<String> key : file.getValue()) {
				if (key.get(0).equals("infergate")) {
					checked++;
					if (!known(key)) {
						unknown.add(String.join(".", key) + " (" + file.getKey() + ")");
					}
				}
			}
		}
		assertThat(checked).as("infergate keys checked").isGreaterThan(100);
		assertThat(unknown).isEmpty();
	}

	@Test
	void aMisspeltKeyUnderAMapIsCaught() {
		assertThat(known(List.of("infergate", "pools", "llama", "engine"))).isTrue();
		assertThat(known(List.of("infergate", "pools", "llama", "engin"))).isFalse();
		assertThat(known(List.of("infergate", "models", "chat", "limits", "rpm"))).isTrue();
		assertThat(known(List.of("infergate", "models", "chat", "limits", "rpn"))).isFalse();
		assertThat(known(List.of("infergate", "gateway", "retrys"))).isFalse();
	}

	/** Whether the metadata has the key, or a property the key is under and whose type has the rest. */
	private static boolean known(List<String> key) {
		for (int i = key.size(); i > 1; i--) {
			JsonNode property = properties.get(String.join(".", key.subList(0, i)));
			if (property != null) {
				return (i == key.size()) || resolves(typeOf(property.path("type").asString()), key.subList(i,
						key.size()));
			}
		}
		return false;
	}

	private static Type typeOf(String name) {
		Matcher map = Pattern.compile("java\\.util\\.Map<java\\.lang\\.String,\\s*(.+)>").matcher(name);
		if (map.matches()) {
			return new MapOf(typeOf(map.group(1)));
		}
		if (name.startsWith("java.util.List<") || name.startsWith("java.util.Set<")) {
			return List.class;
		}
		// a nested class is named with dots: try each dot from the right as the '$' of a nested class
		String binary = name;
		for (int nesting = 0; nesting < 3; nesting++) {
			try {
				return Class.forName(binary);
			}
			catch (ClassNotFoundException ex) {
				int dot = binary.lastIndexOf('.');
				if (dot < 0) {
					break;
				}
				binary = binary.substring(0, dot) + "$" + binary.substring(dot + 1);
			}
		}
		return Object.class;
	}

	/** Whether {@code type} has the property path {@code rest}, as Boot would bind it. */
	private static boolean resolves(Type type, List<String> rest) {
		if (rest.isEmpty()) {
			return true;
		}
		if (type instanceof MapOf map) {
			return resolves(map.values(), rest.subList(1, rest.size()));
		}
		if (type instanceof ParameterizedType parameterized
				&& parameterized.getRawType() instanceof Class<?> raw && Map.class.isAssignableFrom(raw)) {
			return resolves(parameterized.getActualTypeArguments()[1], rest.subList(1, rest.size()));
		}
		if (!(type instanceof Class<?> type1) || type1.getName().startsWith("java.") || type1.isEnum()
				|| type1.isPrimitive() || type1 == Object.class) {
			return false;
		}
		for (Class<?> c = type1; c != null && c != Object.class; c = c.getSuperclass()) {
			for (Field field : c.getDeclaredFields()) {
				if (!java.lang.reflect.Modifier.isStatic(field.getModifiers())
						&& dashed(field.getName()).equals(rest.get(0))) {
					return resolves(field.getGenericType(), rest.subList(1, rest.size()));
				}
			}
		}
		return false;
	}

	private static String dashed(String camel) {
		return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
	}

	/** Each leaf key of the YAML documents, as the segments of its path. */
	private static List<List<String>> keysOf(String yaml) {
		List<List<String>> keys = new ArrayList<>();
		for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
			collect(new ArrayList<>(), document, keys);
		}
		return keys;
	}

	private static void collect(List<String> path, Object value, List<List<String>> keys) {
		if (value instanceof Map<?, ?> map && !map.isEmpty()) {
			map.forEach((key, child) -> {
				List<String> next = new ArrayList<>(path);
				String name = String.valueOf(key);
				if (name.startsWith("[") && name.endsWith("]")) {
					next.add(name.substring(1, name.length() - 1));
				}
				else {
					next.addAll(List.of(name.split("\\.")));
				}
				collect(next, child, keys);
			});
		}
		else if (!path.isEmpty()) {
			keys.add(path);
		}
	}

	private static List<Path> configurationFiles() throws IOException {
		List<Path> files = new ArrayList<>();
		for (String module : List.of("gateway-app", "routing-starter", "admin-ui")) {
			try (Stream<Path> found = Files.walk(ROOT.resolve(module).resolve("src/main/resources"))) {
				found.filter((file) -> file.getFileName().toString().matches(".*\\.ya?ml")).forEach(files::add);
			}
		}
		files.add(ROOT.resolve("deploy/compose/gateway/application.yml"));
		return files;
	}

	/** The application.yml a Kubernetes config map holds. */
	private static String configMapApplicationYaml() throws IOException {
		Map<?, ?> configMap = new Yaml(new SafeConstructor(new LoaderOptions()))
			.load(Files.readString(ROOT.resolve("deploy/kubernetes/configmap.yaml"), StandardCharsets.UTF_8));
		return (String) ((Map<?, ?>) configMap.get("data")).get("application.yml");
	}

	private static List<Path> markdownFiles() throws IOException {
		try (Stream<Path> found = Files.walk(ROOT)) {
			return found.filter((file) -> file.getFileName().toString().endsWith(".md"))
				.filter((file) -> !file.toString().contains("/node_modules/") && !file.toString().contains("/target/")
						&& !file.toString().contains("/."))
				.toList();
		}
	}

	/** A map from names to {@code values}, as the metadata's type names it. */
	private record MapOf(Type values) implements Type {
	}
}
