package io.infergate.gateway.connection;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

import io.infergate.gateway.support.RawHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reactor Netty's own handling of a request pipelined behind another with {@code Connection: close}, kept here so
 * that an upgrade that fixes it shows up, and the same server with {@link PipelinedConnectionClose}.
 */
class PipelinedConnectionCloseTests {

	private static final String ANSWERED_LATER = "GET /later HTTP/1.1\r\nHost: test\r\n\r\n";

	private static final String CLOSING = "GET /closing HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";

	private static final String AFTER_CLOSE = "GET /after HTTP/1.1\r\nHost: test\r\n\r\n";

	/** A server that answers each request with its path, {@code /later} after 100 ms. */
	private static DisposableServer server(boolean withHandler) {
		HttpServer server = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.handle((request, response) -> response.sendString(Mono.just(request.path())
				.delayElement(request.path().equals("later") ? Duration.ofMillis(100) : Duration.ZERO)));
		if (withHandler) {
			server = server.doOnChannelInit((observer, channel, address) -> channel.pipeline()
				.addAfter(NettyPipeline.HttpCodec, PipelinedConnectionClose.NAME, new PipelinedConnectionClose()));
		}
		return server.bindNow();
	}

	/** Every response the server sends for {@code requests}, written in one go, until it closes the connection. */
	private static List<String> exchange(DisposableServer server, String requests) throws IOException {
		List<String> responses = new ArrayList<>();
		try (Socket socket = new Socket("127.0.0.1", server.port())) {
			socket.setSoTimeout(5_000);
			OutputStream out = socket.getOutputStream();
			InputStream in = socket.getInputStream();
			out.write(requests.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			String response;
			while ((response = RawHttp.readResponse(in)) != null) {
				responses.add(response);
			}
		}
		return responses;
	}

	@Test
	void reactorNettyAloneClosesAfterTheFirstResponseAndNeverAnswersThePipelinedRequest() throws IOException {
		DisposableServer server = server(false);
		try {
			List<String> responses = exchange(server, ANSWERED_LATER + CLOSING);

			assertThat(responses).singleElement()
				.satisfies((response) -> assertThat(response).endsWith("later").containsIgnoringCase("connection: close"));
		}
		finally {
			server.disposeNow();
		}
	}

	@Test
	void withTheHandlerBothAreAnsweredInOrderAndTheConnectionClosesAfterTheSecond() throws IOException {
		DisposableServer server = server(true);
		try {
			List<String> responses = exchange(server, ANSWERED_LATER + CLOSING + AFTER_CLOSE);

			assertThat(responses).hasSize(2);
			assertThat(responses.get(0)).endsWith("later").doesNotContainIgnoringCase("connection: close");
			assertThat(responses.get(1)).endsWith("closing").containsIgnoringCase("connection: close");
			assertThat(exchange(server, CLOSING)).singleElement()
				.satisfies((response) -> assertThat(response).endsWith("closing")
					.containsIgnoringCase("connection: close"));
			assertThat(exchange(server, ANSWERED_LATER + AFTER_CLOSE + CLOSING)).hasSize(3);
		}
		finally {
			server.disposeNow();
		}
	}
}
