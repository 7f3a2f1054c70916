package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stream events the writer drops unread when a client goes away are released, exactly once: the writer here behaves
 * as Reactor Netty's does, a {@code concatMap} with 32 events of prefetch that a closed connection cancels.
 */
class UnwrittenEventsTests {

	private final NettyDataBufferFactory buffers = new NettyDataBufferFactory(new UnpooledByteBufAllocator(false));

	private final List<ByteBuf> sent = new ArrayList<>();

	/** Ten one-event publishers, as Spring Cloud Gateway hands a model server's stream to the response. */
	private Flux<Publisher<DataBuffer>> tenEvents() {
		return events(10);
	}

	private Flux<Publisher<DataBuffer>> events(int count) {
		return Flux.range(0, count).map((i) -> {
			NettyDataBuffer buffer = buffers.wrap(buffers.getByteBufAllocator().buffer());
			buffer.write(("data: {\"n\":" + i + "}\n\n").getBytes(StandardCharsets.UTF_8));
			sent.add(buffer.getNativeBuffer());
			return Mono.just(buffer);
		});
	}

	/** The write's clean-up runs after its end reaches the caller, on the thread that ended it: wait for it. */
	private void awaitAllReleased() {
		await().atMost(Duration.ofSeconds(5)).until(() -> sent.stream().allMatch((buffer) -> buffer.refCnt() == 0));
	}

	/** A response whose client goes away after the first event: the connection closes and the write is cancelled. */
	private static final class ClientLeavesAfterOneEvent extends MockServerHttpResponse {

		/** What reached the client, event by event. */
		final List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();

		ClientLeavesAfterOneEvent() {
			getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);
		}

		@Override
		protected Mono<Void> writeAndFlushWithInternal(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			// a slow client: events queue in the writer while it waits for the socket
			return Flux.from(body)
				.concatMap((event) -> Mono.delay(Duration.ofMillis(20)).thenMany(event), 32)
				.take(1)
				// the event written to the socket is released by the channel, and goes no further
				.map((event) -> {
					received.add(event.toString(StandardCharsets.UTF_8));
					return DataBufferUtils.release(event);
				})
				.then();
		}
	}

	@Test
	void withoutTrackingTheEventsQueuedInTheWriterWhenTheClientLeavesKeepTheirBuffers() {
		new ClientLeavesAfterOneEvent().writeAndFlushWith(tenEvents()).block();

		// the writer read one event; the nine it had queued were dropped with their buffers
		assertThat(sent).hasSize(10);
		assertThat(sent.get(0).refCnt()).isZero();
		assertThat(sent.subList(1, 10)).allMatch((buffer) -> buffer.refCnt() == 1);
	}

	@Test
	void anInferenceResponseReleasesEveryEventTheWriterDroppedAndNoEventTwice() {
		ClientLeavesAfterOneEvent client = new ClientLeavesAfterOneEvent();
		InferenceResponse response = new InferenceResponse(client, null, null, null);
		// the test holds a reference of its own to each event's buffer, so a second release shows as a count of 0
		Flux<Publisher<DataBuffer>> events = tenEvents().doOnNext((event) -> sent.get(sent.size() - 1).retain());

		response.writeAndFlushWith(events).block();

		assertThat(sent).hasSize(10);
		assertThat(client.received).containsExactly("data: {\"n\":0}\n\n");
		await().atMost(Duration.ofSeconds(5)).until(() -> sent.stream().allMatch((buffer) -> buffer.refCnt() <= 1));
		assertThat(sent).as("reference counts left to the test").allMatch((buffer) -> buffer.refCnt() == 1);
	}

	/** A response whose client goes away while the writer holds the first event's buffer, before it is written. */
	private static final class ClientLeavesMidWrite extends MockServerHttpResponse {

		ClientLeavesMidWrite() {
			getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);
		}

		@Override
		protected Mono<Void> writeAndFlushWithInternal(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			return Flux.from(body)
				.concatMap((event) -> Flux.from(event).delayElements(Duration.ofMillis(200)), 32)
				.take(Duration.ofMillis(50))
				.doOnNext(DataBufferUtils::release)
				.then();
		}
	}

	@Test
	void aBufferTheWriterDiscardsOnTheWayToTheSocketIsReleasedToo() {
		InferenceResponse response = new InferenceResponse(new ClientLeavesMidWrite(), null, null, null);

		response.writeAndFlushWith(tenEvents()).block();

		// the first event's buffer was discarded by the writer, the nine others never read
		assertThat(sent).hasSize(10);
		awaitAllReleased();
	}

	@Test
	void aLongStreamCutAfterManyEventsReleasesTheEventsQueuedAtTheEnd() {
		// far more events than the window of the last 64 kept: the writer reads 150, with up to 32 queued behind
		MockServerHttpResponse delegate = new MockServerHttpResponse() {
			@Override
			protected Mono<Void> writeAndFlushWithInternal(Publisher<? extends Publisher<? extends DataBuffer>> body) {
				return Flux.from(body)
					.concatMap((event) -> Mono.delay(Duration.ofMillis(1)).thenMany(event), 32)
					.take(150)
					.doOnNext(DataBufferUtils::release)
					.then();
			}
		};
		delegate.getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);

		new InferenceResponse(delegate, null, null, null).writeAndFlushWith(events(1_000)).block();

		assertThat(sent).hasSizeGreaterThan(150);
		awaitAllReleased();
	}

	@Test
	void anEventTheWriterReadsAfterTheWriteEndedIsEmptyAndReleasedOnce() {
		UnwrittenEvents unwritten = new UnwrittenEvents();
		NettyDataBuffer buffer = buffers.wrap(buffers.getByteBufAllocator().buffer(8));
		Publisher<DataBuffer> event = unwritten.track(Mono.just(buffer));
		assertThat(unwritten.unread()).isOne();

		unwritten.releaseUnread();
		List<DataBuffer> readLate = Flux.from(event).collectList().block();
		unwritten.releaseUnread();

		assertThat(readLate).isEmpty();
		assertThat(buffer.getNativeBuffer().refCnt()).isZero();
		assertThat(unwritten.unread()).isZero();
	}

	@Test
	void anEventTheWriterReadIsNotReleasedAgainWhenTheWriteEnds() {
		UnwrittenEvents unwritten = new UnwrittenEvents();
		NettyDataBuffer buffer = buffers.wrap(buffers.getByteBufAllocator().buffer(8));
		Publisher<DataBuffer> event = unwritten.track(Mono.just(buffer));

		List<DataBuffer> read = Flux.from(event).collectList().block();
		unwritten.releaseUnread();

		assertThat(read).containsExactly(buffer);
		assertThat(buffer.getNativeBuffer().refCnt()).isOne();
		assertThat(unwritten.unread()).isZero();
	}
}
