package io.infergate.routing.limits;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * A real Redis in a container for tests, on a free loopback port of the host network, so that it can be stopped and
 * started again on the same port. The image is {@value #DEFAULT_IMAGE} unless the system property
 * {@value #IMAGE_PROPERTY} or the environment variable {@value #IMAGE_ENV} names another one with
 * {@code redis-server} on its path (where no registry can be reached, a locally built one).
 */
public final class RedisServer implements AutoCloseable {

	public static final String IMAGE_PROPERTY = "infergate.test.redis-image";

	public static final String IMAGE_ENV = "INFERGATE_TEST_REDIS_IMAGE";

	public static final String DEFAULT_IMAGE = "redis:7-alpine";

	private final int port = freePort();

	private final GenericContainer<?> container;

	public RedisServer() {
		container = new GenericContainer<>(DockerImageName.parse(image()).asCompatibleSubstituteFor("redis"))
			.withNetworkMode("host")
			.withCreateContainerCmdModifier((cmd) -> cmd.withEntrypoint("redis-server"))
			.withCommand("--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
			.waitingFor(Wait.forLogMessage(".*Ready to accept connections.*", 1)
				.withStartupTimeout(Duration.ofSeconds(60)));
		container.start();
	}

	static String image() {
		String image = System.getProperty(IMAGE_PROPERTY);
		if (image == null || image.isBlank()) {
			image = System.getenv(IMAGE_ENV);
		}
		return (image == null || image.isBlank()) ? DEFAULT_IMAGE : image;
	}

	public String url() {
		return "redis://127.0.0.1:" + port;
	}

	public int port() {
		return port;
	}

	/** Stops Redis, keeping its container to start again. */
	public void stop() {
		DockerClientFactory.instance().client().stopContainerCmd(container.getContainerId()).withTimeout(2).exec();
	}

	/** Starts the stopped Redis again on the same port, empty, and waits until it accepts connections. */
	public void restart() {
		DockerClientFactory.instance().client().startContainerCmd(container.getContainerId()).exec();
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (System.nanoTime() < deadline) {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
				socket.getOutputStream().write("PING\r\n".getBytes());
				if (socket.getInputStream().read() == '+') {
					return;
				}
			}
			catch (IOException notYet) {
				// not listening yet
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		throw new IllegalStateException("Redis did not come back on port " + port);
	}

	@Override
	public void close() {
		container.stop();
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
