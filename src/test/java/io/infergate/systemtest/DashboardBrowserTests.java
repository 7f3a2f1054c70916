package io.infergate.systemtest;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static io.infergate.systemtest.GatewayProcess.get;
import static io.infergate.systemtest.GatewayProcess.getAsAdmin;
import static io.infergate.systemtest.GatewayProcess.postJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard of the packaged gateway in demo mode (four simulated pods), in headless Chromium. Every test fails
 * on any error in the browser's console, and leaves a screenshot of its view under {@code target/screenshots}.
 */
class DashboardBrowserTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	/** A system prompt of a few dozen of the prefix index's 64-character blocks, shared by the what-if requests. */
	private static final String SHARED_PROMPT = "You are the support assistant of a company that sells bicycles. "
		.repeat(30);

	static GatewayProcess gateway;

	static Browser browser;

	/** A configuration file the gateway watches, so a test can change its configuration while it runs. */
	static Path configFile;

	@BeforeAll
	static void start() throws Exception {
		Path configDirectory = Files.createDirectories(Path.of("target", "dashboard-config"));
		configFile = Files.writeString(configDirectory.resolve("application.yml"), "infergate: {}\n");
		// llm-d's profile: several weighted scorers for the decision table and the what-if view to show and change
		gateway = GatewayProcess.start("dashboard", "--infergate.scheduling.default-profile=llm-d",
				"--infergate.management.admin.allow-runtime-changes=true",
				"--spring.config.additional-location=file:" + configDirectory.toAbsolutePath() + "/",
				"--infergate.config-reload.watch-interval=200ms",
				// priced, with a soft budget that one request of 4 output tokens (0.004) goes beyond
				"--infergate.models.demo-llama.price.output=1000",
				"--infergate.models.demo-llama.limits.budget.amount=0.001",
				"--infergate.models.demo-llama.limits.budget.mode=soft",
				"--infergate.models.demo-llama.limits.budget.period=day");
		browser = Browser.start();
		browser.authorize(GatewayProcess.basicCredentials());
	}

	@AfterAll
	static void stop() throws Exception {
		try {
			if (browser != null) {
				browser.close();
			}
		}
		finally {
			gateway.close();
		}
	}

	@AfterEach
	void noErrorInTheConsole() {
		assertThat(browser.consoleErrors()).isEmpty();
	}

	@Test
	void withoutCredentialsTheDashboardAnswers401() {
		HttpResponse<String> response = get(gateway.management("/admin"));

		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
				(challenge) -> assertThat(challenge).startsWith("Basic "));
	}

	@Test
	void showsOneCardPerEndpointHeadedByItsHostAndPort() {
		open("pool");

		List<WebElement> cards = browser.waitUpTo(WAIT)
			.until((driver) -> {
				List<WebElement> shown = driver.findElements(By.cssSelector(".endpoint-card"));
				return shown.size() == 4 ? shown : null;
			});

		Set<String> titles = new TreeSet<>();
		for (WebElement card : cards) {
			titles.add(card.findElement(By.cssSelector(".card-title")).getText());
		}
		assertThat(titles).isEqualTo(endpointIds());
		browser.screenshot("pool");
	}

	@Test
	void trafficSentWhileThePageIsOpenUpdatesPicksAndInFlightWithoutAReload() throws Exception {
		open("pool");
		browser.waitUpTo(WAIT).until((driver) -> driver.findElements(By.cssSelector(".endpoint-card")).size() == 4);
		script("window.notReloaded = true;");
		long picksBefore = picksShown();

		List<CompletableFuture<HttpResponse<InputStream>>> streams = new ArrayList<>();
		try {
			for (int i = 0; i < 4; i++) {
				streams.add(stream("Tell me a long story, number " + i + ".", 4000));
			}
			browser.waitUpTo(WAIT).until((driver) -> inFlightShown() >= 4 && picksShown() >= picksBefore + 4);
			assertThat(script("return window.notReloaded === true;")).isEqualTo(Boolean.TRUE);
			browser.screenshot("pool-under-load");
		}
		finally {
			for (CompletableFuture<HttpResponse<InputStream>> stream : streams) {
				stream.join().body().close();
			}
		}
		browser.waitUpTo(WAIT).until((driver) -> inFlightShown() == 0);
	}

	@Test
	void openingADecisionShowsEachScorersScoreAndWeightWithThePickMarked() {
		assertThat(postJson(gateway.api("/v1/chat/completions"), chat("Which pod answers this?", 4)).statusCode())
			.isEqualTo(200);
		// The list fills from the live feed and a backlog, so a row can arrive above another while the test reads:
		// find this request's decision by its sequence number rather than by its place.
		long sequence = newestDecisionSequence();
		open("decisions");
		WebElement newest = browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElements(By.cssSelector("tr.decision-row[data-sequence='" + sequence + "']"))
				.stream()
				.findFirst()
				.orElse(null));
		String chosen = newest.findElements(By.tagName("td")).get(3).getText();
		// the front door that carried it: the OpenAI API (the Endpoint Picker's say ext-proc)
		assertThat(newest.findElements(By.tagName("td")).get(5).getText()).isEqualTo("http");
		browser.screenshot("decisions");

		newest.click();

		WebElement scores = browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElements(By.cssSelector("#decision-detail table.scores")).stream()
				.findFirst()
				.orElse(null));
		List<String> headers = scores.findElements(By.cssSelector("thead th")).stream().map(WebElement::getText).toList();
		assertThat(headers).containsSubsequence("endpoint", "queue ×2", "kv-cache ×2", "prefix-cache ×3", "total");
		assertThat(browser.driver.findElement(By.cssSelector("tr.decision-row.selected")).getAttribute("data-sequence"))
			.isEqualTo(Long.toString(sequence));
		List<WebElement> picked = scores.findElements(By.cssSelector("tbody tr.chosen"));
		assertThat(picked).hasSize(1);
		assertThat(picked.get(0).getAttribute("data-endpoint")).isEqualTo(chosen);
		assertThat(picked.get(0).getText()).contains("picked");
		assertThat(scores.findElements(By.cssSelector("tbody tr"))).hasSize(4);
		assertThat(browser.driver.findElement(By.id("decision-detail")).getText()).containsIgnoringCase("Removed by filters");
		// the request ended before the decision was opened: its tokens and its cost at demo-llama's price (1,000 per
		// million output tokens, 4 of them)
		String detail = browser.waitUpTo(WAIT)
			.until((driver) -> {
				String text = driver.findElement(By.id("decision-detail")).getText();
				return text.contains("USD") ? text : null;
			});
		assertThat(detail).contains("4 out").contains("0.0040 USD");
		browser.screenshot("decision");
	}

	@Test
	void whatIfShowsPicksThatWouldMoveWhenThePrefixWeightIsZero() throws Exception {
		// One long request keeps a pod busy; requests sharing its prompt's prefix follow it there for the prefix
		// score, although the idle pods' KV caches are emptier: with the prefix weight at 0 they would not.
		CompletableFuture<HttpResponse<InputStream>> busy = stream(SHARED_PROMPT + "First question.", 4000);
		try {
			busy.join();
			// the busy pod's KV-cache use shows once a scrape has seen it
			browser.waitUpTo(WAIT).until((driver) -> aPodShowsKvCacheUse());
			for (int i = 0; i < 6; i++) {
				assertThat(postJson(gateway.api("/v1/chat/completions"),
						chat(SHARED_PROMPT + "Question " + i + ".", 4)).statusCode()).isEqualTo(200);
			}
			open("what-if");
			setWhatIfWeight("prefix-cache", "0");

			browser.waitUpTo(WAIT).until((driver) -> {
				List<WebElement> changed = driver.findElements(By.id("whatif-changed"));
				return !changed.isEmpty() && Integer.parseInt(changed.get(0).getAttribute("data-changed")) > 0;
			});
			List<WebElement> moved = browser.driver.findElements(By.cssSelector("#whatif-changes tbody tr"));
			assertThat(moved).isNotEmpty();
			browser.screenshot("what-if");
		}
		finally {
			busy.join().body().close();
		}
	}

	@Test
	void showsEachPoolsProfileAndTheModelsWithTheirTargets() {
		open("config");

		// the view re-renders its rows as the live feed updates: read each text inside the wait, which retries a row
		// replaced between finding it and reading it
		String models = browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElements(By.cssSelector("#models tr[data-model='demo-lora']")).stream()
				.findFirst()
				.map(WebElement::getText)
				.orElse(null));
		String profiles = browser.waitUpTo(WAIT).until((driver) -> driver.findElement(By.id("profiles")).getText());

		assertThat(models).contains("demo · demo-llama · demo-lora");
		assertThat(profiles).contains("demo", "llm-d", "ready, circuit-breaker, saturation", "queue (2)", "prefix-cache (3)",
				"max-score");
		browser.screenshot("profiles");
	}

	@Test
	void whatIfWeightsApplyToTheRunningProfileAfterAConfirmationAndOneClickRevertsThem() throws Exception {
		open("what-if");
		setWhatIfWeight("prefix-cache", "1");

		// declined: nothing changes
		browser.driver.findElement(By.id("whatif-apply-button")).click();
		browser.waitUpTo(WAIT).until(ExpectedConditions.alertIsPresent()).dismiss();
		assertThat(runningWeight("prefix-cache")).isEqualTo(3.0);

		browser.driver.findElement(By.id("whatif-apply-button")).click();
		Alert confirmation = browser.waitUpTo(WAIT).until(ExpectedConditions.alertIsPresent());
		assertThat(confirmation.getText()).contains("Change the running profile llm-d (pools demo)",
				"before: queue 2, kv-cache 2, prefix-cache 3", "after:  queue 2, kv-cache 2, prefix-cache 1");
		confirmation.accept();

		WebElement applied = browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElements(By.cssSelector("#runtime-changes tbody tr")).stream()
				.findFirst()
				.orElse(null));
		assertThat(applied.getText()).contains("admin", "llm-d", "prefix-cache 3", "prefix-cache 1");
		assertThat(runningWeight("prefix-cache")).isEqualTo(1.0);
		browser.screenshot("runtime-change");

		applied.findElement(By.cssSelector("button[data-revert]")).click();

		browser.waitUpTo(WAIT).until((driver) -> driver.findElements(By.cssSelector("#runtime-changes tbody tr"))
			.size() == 2);
		assertThat(browser.driver.findElement(By.cssSelector("#runtime-changes tbody tr")).getText())
			.contains("reverts #");
		assertThat(runningWeight("prefix-cache")).isEqualTo(3.0);
		assertThat(browser.driver.findElement(By.cssSelector("input[type=number][data-scorer='prefix-cache']"))
			.getAttribute("value")).isEqualTo("3");
		assertThat(gateway.output()).contains("Runtime change #", "by admin: scheduling profile 'llm-d' weights");
	}

	@Test
	void theHeaderShowsTheConfigurationsVersionAndAReloadMovesIt() throws Exception {
		open("config");
		WebElement badge = browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElements(By.cssSelector("#config-version:not([hidden])")).stream()
				.findFirst()
				.orElse(null));
		long before = Long.parseLong(badge.getAttribute("data-version"));
		assertThat(badge.getText()).isEqualTo("config v" + before);

		Files.writeString(configFile, "infergate:\n  models:\n    reload-" + before
				+ ": {pool: demo, target-model: demo-llama}\n");

		browser.waitUpTo(WAIT).until((driver) -> driver.findElement(By.id("config-version")).getText()
			.equals("config v" + (before + 1)));
		assertThat(browser.driver.findElement(By.id("configuration-status")).getText())
			.startsWith("Version " + (before + 1) + ", in effect since ")
			.contains("Last reload ")
			.endsWith(": applied.");
		browser.screenshot("configuration-version");
	}

	@Test
	void aSoftBudgetGoneBeyondShowsWhatIsSpentAndAnOverBudgetBadge() {
		assertThat(postJson(gateway.api("/v1/chat/completions"), chat("What does this cost?", 4)).statusCode())
			.isEqualTo(200);
		open("config");

		String budget = browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElements(By.cssSelector("#budgets [data-budget='model:demo-llama']")).stream()
				.findFirst()
				.map(WebElement::getText)
				.filter((text) -> text.contains("over budget"))
				.orElse(null));

		assertThat(budget).contains("soft · day").contains("of 0.0010 USD");
		browser.screenshot("budgets");
	}

	@Test
	void theUsageViewShowsSpendByTenantAndByModelWithAChartTheBudgetsAndACsvExport() {
		assertThat(postJson(gateway.api("/v1/chat/completions"), chat("Put this on the bill.", 4)).statusCode())
			.isEqualTo(200);
		open("usage");

		String tenant = browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElements(By.cssSelector("#usage-rows tr[data-usage='anonymous']")).stream()
				.findFirst()
				.map(WebElement::getText)
				.orElse(null));
		script("const group = document.getElementById('usage-group'); group.value = 'model';"
				+ "group.dispatchEvent(new Event('change'));");
		String model = browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElements(By.cssSelector("#usage-rows tr[data-usage='demo-llama']")).stream()
				.findFirst()
				.map(WebElement::getText)
				.orElse(null));
		long bars = browser.waitUpTo(WAIT)
			.until((driver) -> {
				long shown = driver.findElements(By.cssSelector("#usage-chart rect")).size();
				return shown > 0 ? shown : null;
			});
		String budgets = browser.waitUpTo(WAIT).until((driver) -> driver.findElement(By.id("usage-budgets")).getText());
		String csvLink = browser.driver.findElement(By.id("usage-csv")).getAttribute("href");

		assertThat(tenant).startsWith("anonymous").endsWith("USD");
		assertThat(model).startsWith("demo-llama");
		assertThat(bars).isPositive();
		assertThat(budgets).contains("model:demo-llama");
		assertThat(csvLink).contains("format=csv").contains("group-by=model");
		String csv = getAsAdmin(gateway.management("/admin/api/usage?format=csv&group-by=model")).body();
		assertThat(csv).startsWith("tenant,key,model,requests,").contains(",,demo-llama,");
		browser.screenshot("usage");
	}

	@Test
	void withoutTheCaptureTheReplayViewSaysHowToTurnItOn() {
		browser.driver.get(gateway.management("/admin#replay"));

		WebElement unavailable = browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElements(By.cssSelector("#replay-unavailable:not([hidden])")).stream()
				.findFirst()
				.orElse(null));

		assertThat(unavailable.getText()).contains("--infergate.capture.enabled=true", "enabled: true");
		assertThat(browser.driver.findElement(By.id("replay-available")).isDisplayed()).isFalse();
		browser.screenshot("replay-without-capture");
	}

	/** Types {@code weight} into the what-if view's number field of {@code scorer}, once the view shows it. */
	private void setWhatIfWeight(String scorer, String weight) {
		WebElement field = browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElements(By.cssSelector("input[type=number][data-scorer='" + scorer + "']"))
				.stream()
				.findFirst()
				.orElse(null));
		field.clear();
		field.sendKeys(weight);
	}

	/** The weight the running gateway's {@code llm-d} profile gives {@code scorer}, read from the dashboard's API. */
	private double runningWeight(String scorer) throws Exception {
		String config = getAsAdmin(gateway.management("/admin/api/config")).body();
		return JsonMapper.builder().build().readTree(config).path("profiles").path("llm-d")
			.path("weights").path(scorer).asDouble();
	}

	private void open(String view) {
		browser.driver.get(gateway.management("/admin#" + view));
		browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElement(By.id("live")).getAttribute("class").contains("on"));
	}

	private Object script(String javascript) {
		return ((JavascriptExecutor) browser.driver).executeScript(javascript);
	}

	private long picksShown() {
		return sumOfLeadingNumbers("[data-field='picks']");
	}

	private long inFlightShown() {
		return sumOfLeadingNumbers("[data-field='inflight']");
	}

	private long sumOfLeadingNumbers(String selector) {
		long sum = 0;
		for (WebElement figure : browser.driver.findElements(By.cssSelector(selector))) {
			String text = figure.getText().trim();
			int end = 0;
			while (end < text.length() && Character.isDigit(text.charAt(end))) {
				end++;
			}
			sum += (end > 0) ? Long.parseLong(text.substring(0, end)) : 0;
		}
		return sum;
	}

	private static boolean aPodShowsKvCacheUse() {
		JsonNode report = JsonMapper.builder().build()
			.readTree(getAsAdmin(gateway.management("/actuator/inference")).body());
		for (JsonNode pool : report.path("pools")) {
			for (JsonNode endpoint : pool.path("endpoints")) {
				if (endpoint.path("metrics").path("kvCacheUsage").asDouble() > 0) {
					return true;
				}
			}
		}
		return false;
	}

	private static long newestDecisionSequence() {
		JsonNode decisions = JsonMapper.builder().build().readTree(getAsAdmin(gateway.management("/admin/api/decisions")).body());
		long newest = -1;
		for (JsonNode decision : decisions) {
			newest = Math.max(newest, decision.path("sequence").asLong());
		}
		assertThat(newest).isNotNegative();
		return newest;
	}

	private static Set<String> endpointIds() {
		JsonNode report = JsonMapper.builder().build().readTree(getAsAdmin(gateway.management("/actuator/inference")).body());
		Set<String> ids = new TreeSet<>();
		for (JsonNode endpoint : report.path("pools").get(0).path("endpoints")) {
			ids.add(endpoint.path("id").asString());
		}
		return ids;
	}

	/** A streaming chat completion, answered once its headers arrive; close its body to cancel it. */
	private static CompletableFuture<HttpResponse<InputStream>> stream(String prompt, int maxTokens) {
		HttpRequest request = HttpRequest.newBuilder(URI.create(gateway.api("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(chat(prompt, maxTokens).replace("\"stream\":false", "\"stream\":true")))
			.build();
		return GatewayProcess.client().sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
	}

	private static String chat(String prompt, int maxTokens) {
		return "{\"model\":\"demo-llama\",\"stream\":false,\"max_tokens\":" + maxTokens
				+ ",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}";
	}
}
