package io.infergate.bench.streams;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EventServerCommandTests {

	private final EventServerCommand server = new EventServerCommand(System.out);

	@AfterEach
	void stop() {
		server.stop();
	}

	@Test
	void eachEventIsItsOwnChunkAGapApartThenTheUsageTheClientAskedForAndDone() throws Exception {
		InetSocketAddress address = server.start(List.of(0), 20, "m").get(0);
		String body = "{\"model\":\"m\",\"max_tokens\":5,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";

		long start = System.nanoTime();
		List<String> chunks = chunks(address, body);
		long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

		assertThat(chunks).hasSize(8);
		for (String event : chunks.subList(0, 6)) {
			assertThat(event).startsWith("data: {").endsWith("}\n\n").containsOnlyOnce("data:");
		}
		assertThat(chunks.get(0)).contains("\"role\":\"assistant\"");
		assertThat(chunks.get(1)).contains("\"content\":\" fox\"");
		assertThat(chunks.get(5)).contains("\"finish_reason\":\"length\"");
		assertThat(chunks.get(6)).contains("\"choices\":[]").contains("\"completion_tokens\":5");
		assertThat(chunks.get(7)).isEqualTo("data: [DONE]\n\n");
		// the role's event and five content events, the first one gap after the start
		assertThat(elapsedMillis).isGreaterThanOrEqualTo(115);
	}

	@Test
	void withoutIncludeUsageNoUsageChunkAndAPlainRequestGetsOneCompletion() throws Exception {
		InetSocketAddress address = server.start(List.of(0, 0), 0, "m").get(1);

		List<String> chunks = chunks(address, "{\"model\":\"m\",\"max_tokens\":3,\"stream\":true}");
		HttpResponse<String> completion = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + "/v1/chat/completions"))
				.POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"max_tokens\":3}"))
				.build(), HttpResponse.BodyHandlers.ofString());

		assertThat(chunks).hasSize(5).last().isEqualTo("data: [DONE]\n\n");
		assertThat(completion.statusCode()).isEqualTo(200);
		assertThat(completion.body()).contains("\"object\":\"chat.completion\"").contains("\"completion_tokens\":3");
	}

	@Test
	void servesMetricsModelsAndHealthAsAModelServerDoes() throws Exception {
		InetSocketAddress address = server.start(List.of(0), 0, "m").get(0);
		HttpClient client = HttpClient.newHttpClient();

		String metrics = get(client, address, "/metrics").body();
		HttpResponse<String> models = get(client, address, "/v1/models");

		assertThat(metrics).contains("vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 0.0")
			.contains("vllm:num_requests_waiting");
		assertThat(models.body()).contains("\"id\":\"m\"");
		assertThat(get(client, address, "/health").statusCode()).isEqualTo(200);
		assertThat(get(client, address, "/nothing").statusCode()).isEqualTo(404);
	}

	@Test
	void streamHoldTimesItsStreams() throws Exception {
		InetSocketAddress address = server.start(List.of(0), 10, "m").get(0);
		ByteArrayOutputStream printed = new ByteArrayOutputStream();

		int status = new StreamHoldCommand(new PrintStream(printed, true, StandardCharsets.UTF_8)).run(new String[] {
				"--url", "http://127.0.0.1:" + address.getPort() + "/v1/chat/completions", "--streams", "50",
				"--max-tokens", "20", "--model", "m" });

		assertThat(status).isZero();
		assertThat(printed.toString(StandardCharsets.UTF_8)).contains("streams 50 complete 50 failed 0 events 1100");
	}

	private static HttpResponse<String> get(HttpClient client, InetSocketAddress address, String path)
			throws Exception {
		return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	/** POSTs {@code body} over a plain socket and returns the response's chunks as they were framed. */
	private static List<String> chunks(InetSocketAddress address, String body) throws Exception {
		try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			OutputStream out = socket.getOutputStream();
			out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
					+ "Content-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			out.write(bytes);
			out.flush();
			InputStream in = socket.getInputStream();
			String status = line(in);
			assertThat(status).isEqualTo("HTTP/1.1 200 OK");
			String header;
			boolean chunked = false;
			while (!(header = line(in)).isEmpty()) {
				chunked |= header.equalsIgnoreCase("transfer-encoding: chunked");
			}
			assertThat(chunked).isTrue();
			List<String> chunks = new ArrayList<>();
			int size;
			while ((size = Integer.parseInt(line(in), 16)) > 0) {
				chunks.add(new String(in.readNBytes(size), StandardCharsets.UTF_8));
				line(in);
			}
			return chunks;
		}
	}

	private static String line(InputStream in) throws Exception {
		StringBuilder line = new StringBuilder();
		int c;
		while ((c = in.read()) != '\n') {
			if (c < 0) {
				throw new IllegalStateException("the connection ended mid-line: " + line);
			}
			if (c != '\r') {
				line.append((char) c);
			}
		}
		return line.toString();
	}
}
