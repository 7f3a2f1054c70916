package io.infergate.gateway.deploy;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;

import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;
import io.infergate.gateway.warmup.RequestPathWarmup;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.PoolProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The manifests in {@code deploy/kubernetes} agree with the application and the image: ports, probe paths (served
 * by a running gateway), the configuration's mount point, the discovery Service, selectors and RBAC. No cluster
 * runs here; this is what can be checked without one.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0" })
@SuppressWarnings("unchecked")
class KubernetesManifestsTests extends SimulatedPods {

	static final Path MANIFESTS = Path.of("..", "deploy", "kubernetes");

	static final Path PICKER_MANIFESTS = MANIFESTS.resolve("endpoint-picker");

	static List<Map<String, Object>> resources = new ArrayList<>();

	static List<Map<String, Object>> pickerResources = new ArrayList<>();

	static Properties defaults;

	@BeforeAll
	@SuppressWarnings("unchecked")
	static void readManifests() throws IOException {
		Map<String, Object> kustomization = load(MANIFESTS.resolve("kustomization.yaml")).get(0);
		for (String file : (List<String>) kustomization.get("resources")) {
			resources.addAll(load(MANIFESTS.resolve(file)));
		}
		Map<String, Object> pickerKustomization = load(PICKER_MANIFESTS.resolve("kustomization.yaml")).get(0);
		for (String file : (List<String>) pickerKustomization.get("resources")) {
			pickerResources.addAll(load(PICKER_MANIFESTS.resolve(file)));
		}
		YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
		yaml.setResources(new ClassPathResource("application.yml"));
		defaults = yaml.getObject();
	}

	@Test
	void gatewayContainerExposesTheApplicationsPortsAndProbesItsHealthGroups() {
		Map<String, Object> container = gatewayContainer();

		assertThat((List<Map<String, Object>>) at(container, "ports")).containsExactlyInAnyOrder(
				Map.of("name", "http", "containerPort", Integer.parseInt(defaults.getProperty("server.port"))),
				Map.of("name", "management",
						"containerPort", Integer.parseInt(defaults.getProperty("management.server.port"))));
		assertThat(defaults.getProperty("management.endpoint.health.probes.enabled")).isEqualTo("true");
		assertThat(probe(container, "livenessProbe")).isEqualTo(Map.of("path", "/actuator/health/liveness", "port", "management"));
		assertThat(probe(container, "startupProbe")).isEqualTo(Map.of("path", "/actuator/health/liveness", "port", "management"));
		assertThat(probe(container, "readinessProbe")).isEqualTo(Map.of("path", "/actuator/health/readiness", "port", "management"));
	}

	@Test
	void probePathsAnswerOnTheManagementPortOfARunningGateway() {
		assertThat(Http.get(managementUrl("/actuator/health/liveness")).statusCode()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> Http.get(managementUrl("/actuator/health/readiness")).statusCode() == 200);
	}

	@Test
	void startupProbeOutlastsTheWarmupWithAMinuteToSpare() {
		Map<String, Object> startup = at(gatewayContainer(), "startupProbe");
		Duration budget = Duration.ofSeconds(((Number) startup.get("periodSeconds")).longValue()
				* ((Number) startup.get("failureThreshold")).longValue());
		Duration warmup = configuration().bind(RequestPathWarmup.DURATION_PROPERTY, Duration.class)
			.orElse(Duration.ZERO);

		assertThat(warmup).isPositive();
		assertThat(budget).isGreaterThanOrEqualTo(warmup.plusMinutes(1));
	}

	@Test
	void configurationIsMountedWhereSpringBootReadsItInTheImage() throws IOException {
		Map<String, Object> deployment = resource("Deployment", "infergate");
		Map<String, Object> mount = ((List<Map<String, Object>>) at(gatewayContainer(), "volumeMounts")).stream()
			.filter((m) -> "config".equals(m.get("name")))
			.findFirst()
			.orElseThrow();
		Map<String, Object> volume = ((List<Map<String, Object>>) at(deployment, "spec", "template", "spec", "volumes"))
			.stream()
			.filter((v) -> "config".equals(v.get("name")))
			.findFirst()
			.orElseThrow();
		String dockerfile = Files.readString(Path.of("..", "Dockerfile"));

		assertThat(dockerfile).contains("\nWORKDIR /app\n");
		assertThat(mount.get("mountPath")).isEqualTo("/app/config");
		assertThat((String) at(volume, "configMap", "name")).isEqualTo("infergate-config");
		assertThat((Map<String, Object>) at(resource("ConfigMap", "infergate-config"), "data")).containsKey("application.yml");
	}

	@Test
	void poolDiscoveryServiceSelectsTheModelServerPods() {
		PoolProperties.Pool pool = configuredPools().get("llama");
		Map<String, Object> service = resource("Service", pool.discoveryServiceId());
		Map<String, Object> modelServers = resource("Deployment", "llama-model-server");
		Map<String, Object> podLabels = at(modelServers, "spec", "template", "metadata", "labels");
		Map<String, Object> container = ((List<Map<String, Object>>) at(modelServers, "spec", "template", "spec",
				"containers")).get(0);

		assertThat(pool.endpoints()).isEmpty();
		assertThat((String) at(service, "spec", "clusterIP")).isEqualTo("None");
		assertThat(podLabels).containsAllEntriesOf(at(service, "spec", "selector"));
		assertThat((List<Map<String, Object>>) at(service, "spec", "ports")).singleElement()
			.satisfies((port) -> assertThat(port.get("targetPort")).isEqualTo("http"));
		assertThat((List<Map<String, Object>>) at(container, "ports"))
			.containsExactly(Map.of("name", "http", "containerPort", 8000));
	}

	@Test
	void gatewayServiceAndDisruptionBudgetSelectTheGatewayPods() {
		Map<String, Object> podLabels = at(resource("Deployment", "infergate"), "spec", "template", "metadata", "labels");

		assertThat(podLabels).containsAllEntriesOf(at(resource("Service", "infergate"), "spec", "selector"));
		assertThat(podLabels).containsAllEntriesOf(
				at(resource("PodDisruptionBudget", "infergate"), "spec", "selector", "matchLabels"));
		assertThat((Integer) at(resource("Deployment", "infergate"), "spec", "replicas"))
			.isGreaterThan((Integer) at(resource("PodDisruptionBudget", "infergate"), "spec", "minAvailable"));
	}

	@Test
	void gatewayServiceAccountMayWatchServicesAndEndpoints() {
		String account = at(resource("Deployment", "infergate"), "spec", "template", "spec", "serviceAccountName");
		Map<String, Object> binding = resource("RoleBinding", "infergate-discovery");
		List<Map<String, Object>> rules = at(resource("Role", at(binding, "roleRef", "name")), "rules");

		assertThat(resource("ServiceAccount", account)).isNotNull();
		assertThat((List<Map<String, Object>>) at(binding, "subjects"))
			.anySatisfy((subject) -> assertThat(subject).containsEntry("kind", "ServiceAccount").containsEntry("name", account));
		assertThat(rules).anySatisfy((rule) -> {
			assertThat((List<String>) rule.get("resources")).contains("services", "endpoints");
			assertThat((List<String>) rule.get("verbs")).contains("get", "list", "watch");
		});
	}

	@Test
	void theGatewaysLedgerIsThePostgresServiceWithTheCredentialsItsDatabaseIsCreatedWith() {
		List<Map<String, Object>> gatewayEnv = at(firstContainer(resource("Deployment", "infergate")), "env");
		Map<String, Object> postgres = resource("StatefulSet", "postgres");
		List<Map<String, Object>> postgresEnv = at(firstContainer(postgres), "env");
		Map<String, Object> service = resource("Service", "postgres");

		assertThat(value(gatewayEnv, "SPRING_DATASOURCE_URL")).isEqualTo("jdbc:postgresql://postgres:5432/infergate");
		assertThat(value(postgresEnv, "POSTGRES_DB")).isEqualTo("infergate");
		assertThat(secretKey(gatewayEnv, "SPRING_DATASOURCE_USERNAME")).isEqualTo(secretKey(postgresEnv, "POSTGRES_USER"))
			.isEqualTo("infergate-db/username");
		assertThat(secretKey(gatewayEnv, "SPRING_DATASOURCE_PASSWORD")).isEqualTo(secretKey(postgresEnv, "POSTGRES_PASSWORD"))
			.isEqualTo("infergate-db/password");
		assertThat(resource("Secret", "infergate-db")).isNotNull();
		Map<String, Object> selector = at(service, "spec", "selector");
		Map<String, Object> labels = at(postgres, "spec", "template", "metadata", "labels");
		assertThat(selector).isEqualTo(labels);
		List<Map<String, Object>> claims = at(postgres, "spec", "volumeClaimTemplates");
		assertThat((Object) at(claims.get(0), "metadata", "name")).isEqualTo("data");
	}

	@Test
	void pickerRunsTheGatewaysImageAloneAsThePickerOfTheInferencePool() {
		Map<String, Object> picker = firstContainer(pickerResource("Deployment", "infergate-picker"));
		List<String> args = at(picker, "args");
		Map<String, Object> inferencePool = pickerResource("InferencePool", "vllm-llama3-8b-instruct");
		Properties arguments = new Properties();
		args.stream().filter((arg) -> arg.startsWith("--")).map((arg) -> arg.substring(2).split("=", 2))
			.forEach((pair) -> arguments.put(pair[0], pair[1]));
		Map<String, PoolProperties.Pool> pools = PoolProperties
			.configuredPools(new Binder(new MapConfigurationPropertySource(arguments)));

		assertThat((String) at(picker, "image")).isEqualTo(at(gatewayContainer(), "image"));
		assertThat(args.get(0)).isEqualTo("gateway");
		assertThat(arguments).containsEntry("infergate.endpoint-picker.enabled", "true")
			.containsEntry("infergate.gateway.enabled", "false");
		assertThat(pools).hasSize(1);
		assertThat(pools.values().iterator().next().inferencePool())
			.isEqualTo(at(inferencePool, "metadata", "name"));
		assertThat(EndpointRegistry.problems(pools.keySet().iterator().next(), pools.values().iterator().next()))
			.isEmpty();
	}

	@Test
	void pickerExposesExtProcHealthAndManagementAndProbesItsGrpcHealthServices() {
		Map<String, Object> picker = firstContainer(pickerResource("Deployment", "infergate-picker"));
		int management = Integer.parseInt(defaults.getProperty("management.server.port"));

		assertThat((List<Map<String, Object>>) at(picker, "ports")).containsExactlyInAnyOrder(
				Map.of("name", "grpc-ext-proc", "containerPort", 9002),
				Map.of("name", "grpc-health", "containerPort", 9003),
				Map.of("name", "management", "containerPort", management));
		assertThat((Map<String, Object>) at(picker, "readinessProbe", "grpc"))
			.isEqualTo(Map.of("port", 9003, "service", "readiness"));
		assertThat((Map<String, Object>) at(picker, "livenessProbe", "grpc"))
			.isEqualTo(Map.of("port", 9003, "service", "liveness"));
	}

	@Test
	void theInferencePoolNamesThePickersServiceAndTheRouteAndObjectivesNameThePool() {
		Map<String, Object> inferencePool = pickerResource("InferencePool", "vllm-llama3-8b-instruct");
		Map<String, Object> service = pickerResource("Service", at(inferencePool, "spec", "endpointPickerRef", "name"));
		Map<String, Object> podLabels = at(pickerResource("Deployment", "infergate-picker"), "spec", "template",
				"metadata", "labels");
		List<Map<String, Object>> backendRefs = at(((List<Map<String, Object>>) at(
				pickerResource("HTTPRoute", "llm-route"), "spec", "rules")).get(0), "backendRefs");

		assertThat((Object) at(inferencePool, "apiVersion")).isEqualTo("inference.networking.k8s.io/v1");
		assertThat((Object) at(inferencePool, "spec", "endpointPickerRef", "failureMode")).isEqualTo("FailClose");
		assertThat((Map<String, Object>) at(inferencePool, "spec", "selector", "matchLabels"))
			.isEqualTo(Map.of("app", "vllm-llama3-8b-instruct"));
		assertThat(podLabels).containsAllEntriesOf(at(service, "spec", "selector"));
		assertThat((List<Map<String, Object>>) at(service, "spec", "ports")).contains(Map.of("name", "grpc-ext-proc",
				"port", at(inferencePool, "spec", "endpointPickerRef", "port", "number"), "targetPort",
				"grpc-ext-proc", "appProtocol", "http2"));
		assertThat(backendRefs).containsExactly(Map.of("group", "inference.networking.k8s.io", "kind",
				"InferencePool", "name", at(inferencePool, "metadata", "name")));
		assertThat(pickerResources.stream().filter((r) -> "InferenceObjective".equals(r.get("kind"))))
			.isNotEmpty()
			.allSatisfy((objective) -> {
				assertThat((Object) at(objective, "apiVersion")).isEqualTo("inference.networking.x-k8s.io/v1alpha2");
				assertThat((Object) at(objective, "spec", "poolRef", "name")).isEqualTo(at(inferencePool, "metadata",
						"name"));
				assertThat((Object) at(objective, "spec", "priority")).isInstanceOf(Integer.class);
			});
	}

	@Test
	void pickerServiceAccountMayWatchInferencePoolsObjectivesAndPods() {
		String account = at(pickerResource("Deployment", "infergate-picker"), "spec", "template", "spec",
				"serviceAccountName");
		Map<String, Object> binding = pickerResource("RoleBinding", "infergate-picker");
		List<Map<String, Object>> rules = at(pickerResource("Role", at(binding, "roleRef", "name")), "rules");

		assertThat(pickerResource("ServiceAccount", account)).isNotNull();
		assertThat((List<Map<String, Object>>) at(binding, "subjects"))
			.anySatisfy((subject) -> assertThat(subject).containsEntry("kind", "ServiceAccount").containsEntry("name", account));
		assertThat(List.of(List.of("inference.networking.k8s.io", "inferencepools"),
				List.of("inference.networking.x-k8s.io", "inferenceobjectives"), List.of("", "pods")))
			.allSatisfy((groupAndResource) -> assertThat(rules).anySatisfy((rule) -> {
				assertThat((List<String>) rule.get("apiGroups")).contains(groupAndResource.get(0));
				assertThat((List<String>) rule.get("resources")).contains(groupAndResource.get(1));
				assertThat((List<String>) rule.get("verbs")).contains("get", "list", "watch");
			}));
	}

	private static Map<String, Object> firstContainer(Map<String, Object> workload) {
		List<Map<String, Object>> containers = at(workload, "spec", "template", "spec", "containers");
		return containers.get(0);
	}

	private static Object value(List<Map<String, Object>> env, String name) {
		return env.stream().filter((variable) -> name.equals(variable.get("name"))).findFirst()
			.map((variable) -> variable.get("value")).orElseThrow(() -> new AssertionError("no " + name));
	}

	private static String secretKey(List<Map<String, Object>> env, String name) {
		Map<String, Object> variable = env.stream().filter((v) -> name.equals(v.get("name"))).findFirst()
			.orElseThrow(() -> new AssertionError("no " + name));
		return at(variable, "valueFrom", "secretKeyRef", "name") + "/" + at(variable, "valueFrom", "secretKeyRef", "key");
	}

	@Test
	void containersRunAsTheImagesUser() throws IOException {
		String dockerfile = Files.readString(Path.of("..", "Dockerfile"));
		Map<String, Object> podSecurity = at(resource("Deployment", "infergate"), "spec", "template", "spec",
				"securityContext");

		assertThat(dockerfile).contains("\nUSER 10001:10001\n");
		assertThat(podSecurity).containsEntry("runAsNonRoot", true).containsEntry("runAsUser", 10001);
	}

	private Map<String, PoolProperties.Pool> configuredPools() {
		return PoolProperties.configuredPools(configuration());
	}

	private static Binder configuration() {
		String applicationYml = at(resource("ConfigMap", "infergate-config"), "data", "application.yml");
		YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
		yaml.setResources(new ByteArrayResource(applicationYml.getBytes()));
		return new Binder(new MapConfigurationPropertySource(yaml.getObject()));
	}

	private static Map<String, Object> gatewayContainer() {
		List<Map<String, Object>> containers = at(resource("Deployment", "infergate"), "spec", "template", "spec",
				"containers");
		return containers.stream().filter((c) -> "gateway".equals(c.get("name"))).findFirst().orElseThrow();
	}

	private static Map<String, Object> probe(Map<String, Object> container, String probe) {
		return at(container, probe, "httpGet");
	}

	private static Map<String, Object> pickerResource(String kind, String name) {
		return pickerResources.stream()
			.filter((r) -> kind.equals(r.get("kind")) && name.equals(at(r, "metadata", "name")))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no " + kind + " named " + name + " in " + PICKER_MANIFESTS));
	}

	private static Map<String, Object> resource(String kind, String name) {
		return resources.stream()
			.filter((r) -> kind.equals(r.get("kind")) && name.equals(at(r, "metadata", "name")))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no " + kind + " named " + name + " in " + MANIFESTS));
	}

	@SuppressWarnings("unchecked")
	private static <T> T at(Map<String, Object> node, String... path) {
		Object current = node;
		for (String key : path) {
			current = ((Map<String, Object>) current).get(key);
		}
		return (T) current;
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> load(Path file) throws IOException {
		List<Map<String, Object>> documents = new ArrayList<>();
		try (Reader reader = Files.newBufferedReader(file)) {
			for (Object document : new Yaml().loadAll(reader)) {
				if (document != null) {
					documents.add((Map<String, Object>) document);
				}
			}
		}
		return documents;
	}
}
