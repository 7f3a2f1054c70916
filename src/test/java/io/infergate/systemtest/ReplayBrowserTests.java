package io.infergate.systemtest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import static io.infergate.systemtest.GatewayProcess.postJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's Replay view of the packaged gateway in demo mode with the traffic capture on, in headless
 * Chromium: a run of two choices over the captured traffic shows its progress, then the figures side by side with
 * the winner marked and its profile as YAML. The run is held to a quarter of a core (its process's JIT compiler and
 * garbage collector included), so its progress can be seen.
 */
class ReplayBrowserTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final int REQUESTS = 120;

	static GatewayProcess gateway;

	static Browser browser;

	@BeforeAll
	static void start() throws Exception {
		Path captures = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "replay-captures-");
		gateway = GatewayProcess.start("replay", "--infergate.capture.enabled=true",
				"--infergate.capture.directory=" + captures.toAbsolutePath(),
				"--infergate.management.dashboard.replay.cpu-share=0.25",
				// the machine running the tests is busy: the run is not to wait for it to calm down
				"--infergate.management.dashboard.replay.yield-above=1");
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
	void aRunOfTwoChoicesShowsItsProgressThenTheFiguresSideBySideWithTheWinnersYaml() throws Exception {
		for (int i = 0; i < REQUESTS; i++) {
			String prompt = ("Group " + (i % 6) + " of the support team shares this system prompt. ").repeat(20)
					+ "Question " + i + ".";
			assertThat(postJson(gateway.api("/v1/chat/completions"), "{\"model\":\"demo-llama\",\"max_tokens\":4,"
					+ "\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}").statusCode()).isEqualTo(200);
		}
		Thread.sleep(1500); // the capture writes its records off the request path

		browser.driver.get(gateway.management("/admin#replay"));
		WebElement file = browser.waitUpTo(WAIT)
			.until((driver) -> driver.findElements(By.cssSelector("#replay-captures tr.capture-row")).stream()
				.findFirst()
				.orElse(null));
		assertThat(file.getText()).contains(REQUESTS + " of " + REQUESTS);
		assertThat(browser.driver.findElement(By.id("replay-from")).getAttribute("value")).isNotEmpty();
		List<WebElement> choices = browser.driver.findElements(By.cssSelector("#replay-choices .replay-choice"));
		assertThat(choices).hasSize(2);
		browser.screenshot("replay-choices");

		browser.driver.findElement(By.id("replay-start")).click();

		browser.waitUpTo(WAIT).until((driver) -> "replaying".equals(driver.findElement(By.id("replay-run"))
			.getAttribute("data-state"))
				&& driver.findElement(By.id("replay-progress-text")).getText().contains("requests replayed"));
		assertThat(browser.driver.findElement(By.id("replay-run-trace")).getText())
			.startsWith(REQUESTS + " routed requests from 1 capture file");
		browser.screenshot("replay-progress");

		browser.waitUpTo(Duration.ofSeconds(180))
			.until((driver) -> "done".equals(driver.findElement(By.id("replay-run")).getAttribute("data-state")));
		List<String> heads = browser.driver.findElements(By.cssSelector("#replay-results thead th")).stream()
			.map(WebElement::getText)
			.toList();
		assertThat(heads).hasSize(3);
		List<WebElement> winner = browser.driver.findElements(By.cssSelector("#replay-results thead th.winner"));
		assertThat(winner).hasSize(1);
		assertThat(winner.get(0).getText()).endsWith("\u2605");
		assertThat(browser.driver.findElements(By.cssSelector("#replay-results tbody tr"))).hasSize(8);
		assertThat(browser.driver.findElements(By.cssSelector("#replay-results tbody td.winner"))).hasSize(8);
		String ttftRow = browser.driver.findElements(By.cssSelector("#replay-results tbody tr")).get(1).getText();
		assertThat(ttftRow).startsWith("TTFT p90").contains(" ms");
		String yaml = browser.driver.findElement(By.id("replay-yaml")).getText();
		String winnerProfile = winner.get(0).getText().replace("\u2605", "").trim().split(" ")[0];
		assertThat(yaml).startsWith("infergate:\n  scheduling:\n    profiles:\n      " + winnerProfile + ":\n")
			.contains("picker: ");
		browser.driver.findElement(By.id("replay-copy")).click();
		browser.waitUpTo(WAIT).until((driver) -> driver.findElement(By.id("replay-copied")).getText().equals("copied"));
		browser.screenshot("replay");
	}
}
