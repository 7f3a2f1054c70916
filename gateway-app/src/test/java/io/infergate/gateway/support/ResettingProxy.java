package io.infergate.gateway.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay in front of a simulated pod that, while {@link #resetGenerations(boolean) told to}, answers every
 * connection whose first request is a POST with a TCP reset: a model server whose generations fail at the connection
 * while its {@code /metrics} still answers. Turning resets on closes every relayed connection, so that no pooled
 * connection slips a POST past the check.
 */
public final class ResettingProxy implements AutoCloseable {

	private final ServerSocket server;

	private final int targetPort;

	private final Set<Socket> open = ConcurrentHashMap.newKeySet();

	private volatile boolean resetting;

	public ResettingProxy(int targetPort) {
		this.targetPort = targetPort;
		try {
			server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Thread acceptor = new Thread(this::accept, "resetting-proxy");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	public String baseUrl() {
		return "http://127.0.0.1:" + server.getLocalPort();
	}

	public void resetGenerations(boolean reset) {
		this.resetting = reset;
		if (reset) {
			open.forEach(ResettingProxy::closeQuietly);
			open.clear();
		}
	}

	private void accept() {
		while (!server.isClosed()) {
			try {
				Socket client = server.accept();
				Thread handler = new Thread(() -> handle(client), "resetting-proxy-connection");
				handler.setDaemon(true);
				handler.start();
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void handle(Socket client) {
		try {
			byte[] head = readHead(client.getInputStream());
			if (resetting && new String(head, StandardCharsets.US_ASCII).startsWith("POST")) {
				client.setSoLinger(true, 0);
				client.close();
				return;
			}
			Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
			open.add(client);
			open.add(upstream);
			upstream.getOutputStream().write(head);
			Thread back = new Thread(() -> pump(upstream, client), "resetting-proxy-back");
			back.setDaemon(true);
			back.start();
			pump(client, upstream);
		}
		catch (IOException ex) {
			closeQuietly(client);
		}
	}

	/** The bytes up to and including the first blank line. */
	private static byte[] readHead(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int matched = 0;
		byte[] end = { '\r', '\n', '\r', '\n' };
		while (matched < 4) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("closed before the request head ended");
			}
			head.write(b);
			matched = (b == end[matched]) ? matched + 1 : ((b == '\r') ? 1 : 0);
		}
		return head.toByteArray();
	}

	private void pump(Socket from, Socket to) {
		byte[] buffer = new byte[8192];
		try (InputStream in = from.getInputStream()) {
			OutputStream out = to.getOutputStream();
			int n;
			while ((n = in.read(buffer)) >= 0) {
				out.write(buffer, 0, n);
				out.flush();
			}
		}
		catch (IOException ex) {
			// either side went away
		}
		finally {
			closeQuietly(from);
			closeQuietly(to);
			open.remove(from);
			open.remove(to);
		}
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// already closed
		}
	}

	@Override
	public void close() {
		try {
			server.close();
		}
		catch (IOException ex) {
			// already closed
		}
		resetGenerations(true);
	}
}
