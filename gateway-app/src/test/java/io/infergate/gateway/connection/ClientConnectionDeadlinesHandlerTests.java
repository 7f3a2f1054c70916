package io.infergate.gateway.connection;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deadlines of one client connection on the event loop's clock, moved by hand: header timeout 30 s, body timeout
 * 60 s. The end-to-end behaviour over real sockets is in {@code ClientConnectionDeadlinesTests}.
 */
class ClientConnectionDeadlinesHandlerTests {

	private EmbeddedChannel channel;

	@BeforeEach
	void connect() {
		ClientConnectionProperties properties = new ClientConnectionProperties(Duration.ofSeconds(30),
				Duration.ofSeconds(60), 10_000);
		channel = new EmbeddedChannel();
		channel.freezeTime();
		channel.pipeline().addLast(new ClientConnectionDeadlines(properties, new AtomicInteger()));
	}

	private void elapse(int seconds) {
		channel.advanceTimeBy(seconds, TimeUnit.SECONDS);
		channel.runScheduledPendingTasks();
	}

	private void request() {
		channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/v1/chat/completions"));
	}

	private void respond() {
		channel.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
		channel.writeOutbound(LastHttpContent.EMPTY_LAST_CONTENT);
	}

	@Test
	void aConnectionThatSendsNothingIsClosedAtTheHeaderTimeout() {
		elapse(29);
		assertThat(channel.isOpen()).isTrue();

		elapse(1);

		assertThat(channel.isOpen()).isFalse();
	}

	@Test
	void aKeptAliveConnectionGetsAFullHeaderTimeoutAfterEachResponse() {
		elapse(20);
		request();
		respond();
		elapse(20); // 40 s after opening, 20 s after the response
		assertThat(channel.isOpen()).isTrue();
		request();
		respond();
		elapse(29);
		assertThat(channel.isOpen()).isTrue();

		elapse(1);

		assertThat(channel.isOpen()).isFalse();
	}

	@Test
	void aRequestBeingAnsweredIsNeverCut() {
		request();

		elapse(600);

		assertThat(channel.isOpen()).isTrue();
	}

	@Test
	void aBodyThatDoesNotEndIsCutAtTheBodyTimeout() {
		channel.writeInbound(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/v1/chat/completions"));
		elapse(59);
		assertThat(channel.isOpen()).isTrue();

		elapse(1);

		assertThat(channel.isOpen()).isFalse();
	}

	@Test
	void aShorterDeadlineSetWhileALongerOneIsPendingIsKept() {
		// body timeout pending (60 s); the body ends and the response follows at once: the header timeout (30 s)
		// must close the idle connection, not the 60 s check that was already scheduled
		channel.writeInbound(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/v1/chat/completions"));
		channel.writeInbound(LastHttpContent.EMPTY_LAST_CONTENT);
		respond();

		elapse(30);

		assertThat(channel.isOpen()).isFalse();
	}
}
