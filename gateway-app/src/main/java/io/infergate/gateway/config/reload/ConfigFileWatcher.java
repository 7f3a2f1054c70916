package io.infergate.gateway.config.reload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Reads the configuration files every {@code interval} and runs {@code onChange} when any of them changed: its
 * bytes, or whether it exists. Reading the content rather than watching the directory also sees a Kubernetes
 * ConfigMap update, which swaps a symbolic link rather than writing the file.
 */
final class ConfigFileWatcher implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(ConfigFileWatcher.class);

	private static final String ABSENT = "absent";

	private final List<Path> files;

	private final Duration interval;

	private final Runnable onChange;

	private final Map<Path, String> digests = new LinkedHashMap<>();

	private ScheduledExecutorService executor;

	ConfigFileWatcher(List<Path> files, Duration interval, Runnable onChange) {
		this.files = List.copyOf(files);
		this.interval = interval;
		this.onChange = onChange;
	}

	List<Path> files() {
		return files;
	}

	/** Watches nothing when the interval is 0 or there is no file. */
	@Override
	public synchronized void start() {
		if (interval.isZero() || interval.isNegative() || files.isEmpty()) {
			logger.debug("Not watching configuration files: " + (files.isEmpty() ? "none loaded" : "interval 0"));
			return;
		}
		for (Path file : files) {
			digests.put(file, digest(file));
		}
		executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "infergate-config-watch");
			thread.setDaemon(true);
			return thread;
		});
		executor.scheduleWithFixedDelay(this::check, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
		logger.info("Watching " + files + " every " + interval + " for configuration changes");
	}

	/** Runs {@code onChange} once when any file changed since the last check. */
	synchronized void check() {
		List<Path> changed = new ArrayList<>();
		for (Path file : files) {
			String now = digest(file);
			if (!now.equals(digests.put(file, now))) {
				changed.add(file);
			}
		}
		if (changed.isEmpty()) {
			return;
		}
		logger.info("Configuration file changed: " + changed + "; reloading");
		try {
			onChange.run();
		}
		catch (RuntimeException ex) {
			logger.error("Reloading the configuration after " + changed + " changed failed", ex);
		}
	}

	private static String digest(Path file) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
		}
		catch (NoSuchFileException ex) {
			return ABSENT;
		}
		catch (IOException ex) {
			logger.warn("Cannot read configuration file " + file + ": " + ex.getMessage());
			return ABSENT;
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public synchronized void stop() {
		if (executor != null) {
			executor.shutdownNow();
			executor = null;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return executor != null;
	}
}
