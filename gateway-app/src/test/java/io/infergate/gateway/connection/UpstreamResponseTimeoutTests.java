package io.infergate.gateway.connection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.web.server.ResponseStatusException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The response timeout of one connection to a model server, 300 s, on the event loop's clock moved by hand. Over
 * real sockets: {@code GatewayTimeoutTests}.
 */
class UpstreamResponseTimeoutTests {

	private EmbeddedChannel channel;

	private final List<Throwable> failures = new ArrayList<>();

	@BeforeEach
	void connect() {
		channel = new EmbeddedChannel();
		channel.freezeTime();
		channel.pipeline().addLast(UpstreamResponseTimeout.NAME, new UpstreamResponseTimeout(Duration.ofSeconds(300)));
		channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
			@Override
			public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
				failures.add(cause);
			}
		});
	}

	private void elapse(int seconds) {
		channel.advanceTimeBy(seconds, TimeUnit.SECONDS);
		channel.runScheduledPendingTasks();
	}

	private void send() {
		channel.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/v1/chat/completions"));
	}

	private void responseHead(HttpResponseStatus status) {
		channel.writeInbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, status));
	}

	@Test
	void aRequestWithoutResponseHeadersFailsWith504AtTheTimeoutAndTheConnectionCloses() {
		send();
		elapse(299);
		assertThat(failures).isEmpty();
		assertThat(channel.isOpen()).isTrue();

		elapse(1);

		assertThat(failures).singleElement()
			.isInstanceOfSatisfying(ResponseStatusException.class, (ex) -> {
				assertThat(ex.getStatusCode().value()).isEqualTo(504);
				assertThat(ex.getReason()).isEqualTo("no response headers within 300000 ms");
			});
		assertThat(channel.isOpen()).isFalse();
	}

	@Test
	void aResponseWhoseHeadArrivedIsNeverCut() {
		send();
		elapse(100);
		responseHead(HttpResponseStatus.OK);
		for (int i = 0; i < 20; i++) {
			elapse(60); // a 20-minute stream
			channel.writeInbound(LastHttpContent.EMPTY_LAST_CONTENT.retainedDuplicate());
		}

		assertThat(failures).isEmpty();
		assertThat(channel.isOpen()).isTrue();
	}

	@Test
	void anIdleKeptAliveConnectionIsNotTimed() {
		send();
		responseHead(HttpResponseStatus.OK);

		elapse(3_600);

		assertThat(channel.isOpen()).isTrue();
	}

	@Test
	void eachRequestOnAKeptAliveConnectionGetsTheWholeTimeout() {
		send();
		elapse(200);
		responseHead(HttpResponseStatus.OK);
		elapse(50);
		send(); // due at 550 s; the check scheduled for 300 s finds the deadline moved
		elapse(299);
		assertThat(channel.isOpen()).isTrue();

		elapse(1);

		assertThat(failures).hasSize(1);
		assertThat(channel.isOpen()).isFalse();
	}

	@Test
	void anInformationalResponseDoesNotStopTheTimer() {
		send();
		responseHead(HttpResponseStatus.CONTINUE);

		elapse(300);

		assertThat(failures).hasSize(1);
		assertThat(channel.isOpen()).isFalse();
	}

	@Test
	void itReplacesSpringCloudGatewaysTimerOnlyForAPositiveTimeoutOverHttp1() {
		HttpClientProperties client = new HttpClientProperties();
		ServerProperties server = new ServerProperties();
		client.setResponseTimeout(Duration.ofSeconds(300));
		assertThat(UpstreamResponseTimeout.replacing(client, server)).isEqualTo(Duration.ofSeconds(300));

		server.getHttp2().setEnabled(true); // the client may then speak HTTP/2 to a model server
		assertThat(UpstreamResponseTimeout.replacing(client, server)).isNull();

		server.getHttp2().setEnabled(false);
		client.setResponseTimeout(null);
		assertThat(UpstreamResponseTimeout.replacing(client, server)).isNull();
	}
}
