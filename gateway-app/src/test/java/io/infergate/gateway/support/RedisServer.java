package io.infergate.gateway.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis for a test: {@code redis-server} (Debian package {@code redis-server}; {@code .ci/run} installs it) on a
 * free loopback port, without persistence, stopped after the test. {@code INFERGATE_REDIS_SERVER} names another
 * executable.
 */
public final class RedisServer implements AutoCloseable {

	private static final Duration STARTUP = Duration.ofSeconds(20);

	private final int port;

	private Process process;

	private RedisServer(int port) {
		this.port = port;
	}

	/** A running server. */
	public static RedisServer started() {
		RedisServer server = stopped();
		server.launch();
		return server;
	}

	/** A server on a free port that {@link #restart()} starts. */
	public static RedisServer stopped() {
		return new RedisServer(freePort());
	}

	public URI url() {
		return URI.create("redis://127.0.0.1:" + port);
	}

	/** Stops the server; {@link #restart()} starts it again on the same port, empty. */
	public void stop() {
		if (process != null) {
			process.destroy();
			try {
				process.waitFor(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			process.destroyForcibly();
			process = null;
		}
	}

	public void restart() {
		stop();
		launch();
	}

	@Override
	public void close() {
		stop();
	}

	private void launch() {
		String executable = System.getenv().getOrDefault("INFERGATE_REDIS_SERVER", "redis-server");
		try {
			process = new ProcessBuilder(List.of(executable, "--port", Integer.toString(port), "--bind", "127.0.0.1",
					"--save", "", "--appendonly", "no", "--protected-mode", "no"))
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot run " + executable
					+ ": install Redis (Debian package redis-server) or name it in INFERGATE_REDIS_SERVER", ex);
		}
		long deadline = System.nanoTime() + STARTUP.toNanos();
		while (!answersPing()) {
			if (!process.isAlive() || System.nanoTime() > deadline) {
				throw new IllegalStateException(executable + " did not start on port " + port);
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
	}

	private boolean answersPing() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
			socket.setSoTimeout(1000);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = new byte[7];
			int read = in.readNBytes(reply, 0, reply.length);
			return new String(reply, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}
}
