package io.infergate.gateway.replay;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.springframework.util.unit.DataSize;

import io.infergate.gateway.InfergateGatewayApplication;

/**
 * Starts a dashboard replay run's process: the gateway's own Java and classes running {@link ReplayWorkerCommand},
 * at the lowest scheduling priority (Linux's idle scheduling class, {@code chrt --idle 0}, where {@code chrt} is
 * found, else {@code nice -n 19} where {@code nice} is), with a heap of at most
 * {@code max-heap}, the serial garbage collector and one processor as far as the JVM is concerned. The operating
 * system then serves the gateway's threads first whenever both want a core, which a thread of the gateway's own
 * process could not get: its JIT compilation and garbage collection were the gateway's.
 */
final class ReplayProcess {

	private static final List<Path> CHRT = List.of(Path.of("/usr/bin/chrt"), Path.of("/bin/chrt"));

	private static final List<Path> NICE = List.of(Path.of("/usr/bin/nice"), Path.of("/bin/nice"));

	private final DataSize maxHeap;

	/** {@link #lowestPriority()}, found at the first run: it tries {@code chrt} once. */
	private List<String> priority;

	ReplayProcess(DataSize maxHeap) {
		this.maxHeap = maxHeap;
	}

	/** The command line that runs the job in {@code job}. */
	synchronized List<String> command(Path job) {
		if (priority == null) {
			priority = lowestPriority();
		}
		List<String> command = new ArrayList<>(priority);
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xmx" + Math.max(64, maxHeap.toMegabytes()) + "m");
		command.add("-XX:+UseSerialGC");
		command.add("-XX:ActiveProcessorCount=1");
		command.add("-XX:+ExitOnOutOfMemoryError");
		command.add("-XX:-UsePerfData");
		command.add("-Djava.awt.headless=true");
		command.addAll(launcher());
		command.add(ReplayWorkerCommand.NAME);
		command.add(job.toAbsolutePath().toString());
		return command;
	}

	/** What runs the process at the lowest priority: the idle scheduling class, else the highest niceness. */
	static List<String> lowestPriority() {
		Optional<Path> chrt = CHRT.stream().filter(Files::isExecutable).findFirst();
		if (chrt.isPresent() && runs(List.of(chrt.get().toString(), "--idle", "0", chrt.get().toString(), "--version"))) {
			return List.of(chrt.get().toString(), "--idle", "0");
		}
		return NICE.stream().filter(Files::isExecutable).findFirst()
			.map((nice) -> List.of(nice.toString(), "-n", "19"))
			.orElse(List.of());
	}

	/** Whether the command runs and exits with 0 (a container may refuse the idle class). */
	private static boolean runs(List<String> command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			return process.waitFor(5, TimeUnit.SECONDS) && process.exitValue() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** Starts the job; standard error goes to {@code errors}, standard input stays open while the gateway lives. */
	Process start(Path job, Path errors) throws IOException {
		return new ProcessBuilder(command(job)).redirectError(errors.toFile()).start();
	}

	/**
	 * How this JVM was started, for the process to run the same classes: {@code -jar} with the gateway's jar when
	 * it runs from one (as {@code java -jar gateway-app.jar} does, and the container image), else the class path
	 * and the gateway's main class.
	 */
	static List<String> launcher() {
		String classPath = System.getProperty("java.class.path", "");
		String started = System.getProperty("sun.java.command", "");
		if (classPath.endsWith(".jar") && !classPath.contains(File.pathSeparator) && started.startsWith(classPath)) {
			return List.of("-jar", classPath);
		}
		return List.of("-cp", classPath, InfergateGatewayApplication.class.getName());
	}
}
