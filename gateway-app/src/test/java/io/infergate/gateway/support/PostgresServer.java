package io.infergate.gateway.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A real PostgreSQL in a container for tests, on a free loopback port of the host network, so that it can be stopped
 * and started again on the same port with its data. The image is {@value #DEFAULT_IMAGE} unless the system property
 * {@value #IMAGE_PROPERTY} or the environment variable {@value #IMAGE_ENV} names another one that reads
 * {@code POSTGRES_PASSWORD} and {@code PGPORT} as the public image does (where no registry can be reached, the one
 * {@code .ci/local-images.sh postgres} builds from Debian's packages).
 */
public final class PostgresServer implements AutoCloseable {

	public static final String IMAGE_PROPERTY = "infergate.test.postgres-image";

	public static final String IMAGE_ENV = "INFERGATE_TEST_POSTGRES_IMAGE";

	public static final String DEFAULT_IMAGE = "postgres:16-alpine";

	public static final String USER = "postgres";

	public static final String PASSWORD = "ledger-test";

	private static final Duration STARTUP = Duration.ofSeconds(60);

	private final int port = freePort();

	private final GenericContainer<?> container;

	public PostgresServer() {
		container = new GenericContainer<>(DockerImageName.parse(image()).asCompatibleSubstituteFor("postgres"))
			.withNetworkMode("host")
			.withEnv("POSTGRES_PASSWORD", PASSWORD)
			.withEnv("PGPORT", Integer.toString(port))
			.withCommand("-c", "fsync=off", "-c", "listen_addresses=127.0.0.1");
		container.start();
		awaitConnection();
	}

	static String image() {
		String image = System.getProperty(IMAGE_PROPERTY);
		if (image == null || image.isBlank()) {
			image = System.getenv(IMAGE_ENV);
		}
		return (image == null || image.isBlank()) ? DEFAULT_IMAGE : image;
	}

	public String jdbcUrl() {
		return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
	}

	/** A fresh database of its own on this server, for one test; its JDBC URL. */
	public String createDatabase(String name) {
		try (Connection connection = DriverManager.getConnection(jdbcUrl(), USER, PASSWORD)) {
			connection.createStatement().execute("CREATE DATABASE " + name);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		return "jdbc:postgresql://127.0.0.1:" + port + "/" + name;
	}

	/** Stops PostgreSQL, keeping its container and data to start again. */
	public void stop() {
		DockerClientFactory.instance().client().stopContainerCmd(container.getContainerId()).withTimeout(5).exec();
	}

	/** Starts the stopped server again on the same port, with its data, and waits until it accepts connections. */
	public void restart() {
		DockerClientFactory.instance().client().startContainerCmd(container.getContainerId()).exec();
		awaitConnection();
	}

	private void awaitConnection() {
		long deadline = System.nanoTime() + STARTUP.toNanos();
		SQLException last = null;
		while (System.nanoTime() < deadline) {
			try (Connection connection = DriverManager.getConnection(jdbcUrl(), USER, PASSWORD)) {
				if (connection.isValid(2)) {
					return;
				}
			}
			catch (SQLException ex) {
				last = ex;
			}
			try {
				Thread.sleep(200);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		throw new IllegalStateException("PostgreSQL did not accept connections on port " + port + ": "
				+ container.getLogs(), last);
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
