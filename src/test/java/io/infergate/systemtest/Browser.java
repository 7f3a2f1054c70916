package io.infergate.systemtest;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven by its chromedriver, with a fresh profile. Credentials reach every request the
 * page makes (fetch and EventSource included) as an extra header set through the DevTools protocol: Chromium
 * refuses fetch and EventSource in a page loaded from a URL that holds credentials.
 */
final class Browser implements AutoCloseable {

	private static final String CHROMIUM = System.getProperty("chromium.binary", "/usr/bin/chromium");

	private static final String CHROMEDRIVER = System.getProperty("chromedriver.binary", "/usr/bin/chromedriver");

	final ChromeDriver driver;

	private final Path profile;

	private Browser(ChromeDriver driver, Path profile) {
		this.driver = driver;
		this.profile = profile;
	}

	static Browser start() throws IOException {
		Path profile = Files.createTempDirectory("infergate-chromium-");
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM);
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
				"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--user-data-dir=" + profile, "--window-size=1440,1100");
		LoggingPreferences logs = new LoggingPreferences();
		logs.enable(LogType.BROWSER, Level.ALL);
		options.setCapability("goog:loggingPrefs", logs);
		ChromeDriverService service = new ChromeDriverService.Builder()
			.usingDriverExecutable(new File(CHROMEDRIVER))
			.usingAnyFreePort()
			.build();
		return new Browser(new ChromeDriver(service, options), profile);
	}

	/** Sends {@code Authorization} with every request from now on. */
	void authorize(String authorization) {
		driver.executeCdpCommand("Network.enable", Map.of());
		driver.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Authorization", authorization)));
	}

	WebDriverWait waitUpTo(Duration timeout) {
		WebDriverWait wait = new WebDriverWait(driver, timeout);
		wait.pollingEvery(Duration.ofMillis(100));
		// the page redraws live figures several times a second
		wait.ignoring(StaleElementReferenceException.class);
		return wait;
	}

	/** The console's errors since the last call (entries are read once). */
	List<String> consoleErrors() {
		return driver.manage()
			.logs()
			.get(LogType.BROWSER)
			.getAll()
			.stream()
			.filter((entry) -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
			.map(LogEntry::toString)
			.toList();
	}

	/** Saves a PNG of the window under {@code screenshots.dir} (target/screenshots) and returns its path. */
	Path screenshot(String name) {
		Path directory = Path.of(System.getProperty("screenshots.dir", "target/screenshots"));
		try {
			Files.createDirectories(directory);
			Path png = directory.resolve(name + ".png");
			Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), png, StandardCopyOption.REPLACE_EXISTING);
			return png;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() throws IOException {
		try {
			driver.quit();
		}
		finally {
			try (var files = Files.walk(profile)) {
				files.sorted(java.util.Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
			}
		}
	}
}
