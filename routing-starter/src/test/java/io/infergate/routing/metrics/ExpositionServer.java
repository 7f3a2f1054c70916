package io.infergate.routing.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A loopback model server's {@code /metrics} whose exposition, status and delay a test sets, and which records the
 * requests it sees.
 */
final class ExpositionServer implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private volatile byte[] body;

	private volatile int status = 200;

	private volatile long delayMillis;

	private volatile boolean chunked;

	private volatile boolean closeEachConnection;

	private final AtomicInteger requests = new AtomicInteger();

	private final AtomicInteger inFlight = new AtomicInteger();

	private final AtomicInteger maxInFlight = new AtomicInteger();

	private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();

	private final List<Request> log = new CopyOnWriteArrayList<>();

	private ExpositionServer(byte[] body) throws IOException {
		this.body = body;
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", this::handle);
		this.server.setExecutor(executor);
		this.server.start();
	}

	static ExpositionServer serving(byte[] body) {
		try {
			return new ExpositionServer(body);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	URI baseUri() {
		return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
	}

	int port() {
		return server.getAddress().getPort();
	}

	void serve(byte[] body) {
		this.body = body;
		this.status = 200;
	}

	void failWith(int status) {
		this.status = status;
	}

	void delay(long delayMillis) {
		this.delayMillis = delayMillis;
	}

	/** Sends bodies with chunked transfer encoding, in pieces of 1 KB. */
	void sendChunked() {
		this.chunked = true;
	}

	/** Answers {@code Connection: close} and closes the connection after each response. */
	void closeEachConnection() {
		this.closeEachConnection = true;
	}

	int requests() {
		return requests.get();
	}

	int maxInFlight() {
		return maxInFlight.get();
	}

	Set<Integer> clientPorts() {
		return clientPorts;
	}

	List<Request> log() {
		return log;
	}

	private void handle(HttpExchange exchange) throws IOException {
		int concurrent = inFlight.incrementAndGet();
		maxInFlight.accumulateAndGet(concurrent, Math::max);
		requests.incrementAndGet();
		clientPorts.add(exchange.getRemoteAddress().getPort());
		log.add(new Request(exchange.getRequestURI().getPath(), System.nanoTime()));
		try (InputStream in = exchange.getRequestBody(); OutputStream out = exchange.getResponseBody()) {
			in.readAllBytes();
			if (delayMillis > 0) {
				Thread.sleep(delayMillis);
			}
			byte[] response = (status == 200) ? body : ("error " + status).getBytes();
			exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
			if (closeEachConnection) {
				exchange.getResponseHeaders().set("Connection", "close");
			}
			if (chunked) {
				exchange.sendResponseHeaders(status, 0);
				for (int offset = 0; offset < response.length; offset += 1024) {
					out.write(response, offset, Math.min(1024, response.length - offset));
					out.flush();
				}
			}
			else {
				exchange.sendResponseHeaders(status, response.length);
				out.write(response);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			inFlight.decrementAndGet();
		}
	}

	@Override
	public void close() {
		server.stop(0);
		executor.shutdownNow();
	}

	record Request(String path, long atNanos) {
	}
}
