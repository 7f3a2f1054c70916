package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

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

import io.infergate.gateway.observe.RelayedResponse;
import io.infergate.routing.openai.ResponseUsage;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.request.InferenceRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * A stream leaves as one flat sequence of buffers, read for its usage and timed on the way, and every chunk the writer
 * drops when a client goes away is released exactly once. The writers here behave as Reactor Netty's does: they
 * read ahead of the socket and cancel when the connection closes.
 */
class InferenceResponseTests {

	private final NettyDataBufferFactory buffers = new NettyDataBufferFactory(new UnpooledByteBufAllocator(false));

	private final List<ByteBuf> sent = new ArrayList<>();

	/** Ten one-buffer publishers, as Spring Cloud Gateway hands a model server's stream to the response. */
	private Flux<Publisher<DataBuffer>> tenEvents() {
		return events(10);
	}

	private Flux<Publisher<DataBuffer>> events(int count) {
		return Flux.range(0, count).map((i) -> Flux.just(event("data: {\"n\":" + i + "}\n\n")));
	}

	private DataBuffer event(String text) {
		NettyDataBuffer buffer = buffers.wrap(buffers.getByteBufAllocator().buffer());
		buffer.write(text.getBytes(StandardCharsets.UTF_8));
		sent.add(buffer.getNativeBuffer());
		return buffer;
	}

	/** The write's clean-up runs after its end reaches the caller, on the thread that ended it: wait for it. */
	private void awaitAllReleased() {
		await().atMost(Duration.ofSeconds(5)).until(() -> sent.stream().allMatch((buffer) -> buffer.refCnt() == 0));
	}

	/** An event stream's response whose socket is played by {@code writer}. */
	private static MockServerHttpResponse eventStream(
			java.util.function.Function<Flux<DataBuffer>, Mono<Void>> writer) {
		MockServerHttpResponse response = new MockServerHttpResponse() {
			@Override
			protected Mono<Void> writeWithInternal(Publisher<? extends DataBuffer> body) {
				return writer.apply(Flux.from(body));
			}

			@Override
			protected Mono<Void> writeAndFlushWithInternal(Publisher<? extends Publisher<? extends DataBuffer>> body) {
				throw new AssertionError("a stream is written flat");
			}
		};
		response.getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);
		return response;
	}

	private static Dispatch dispatch() {
		return new Dispatch(new InferenceRequest("m", "p", "m", null, "hi", 1, 16, true, null, 0));
	}

	/** An event stream's response whose socket takes everything, into {@code written}. */
	private static MockServerHttpResponse writingTo(List<String> written) {
		return eventStream((body) -> body.doOnNext((buffer) -> {
			written.add(buffer.toString(StandardCharsets.UTF_8));
			DataBufferUtils.release(buffer);
		}).then());
	}

	@Test
	void aStreamIsWrittenFlatInOrderWithItsFirstByteTimedAndItsUsageRead() {
		List<String> written = new CopyOnWriteArrayList<>();
		MockServerHttpResponse client = writingTo(written);
		RelayedResponse relayed = new RelayedResponse(System.nanoTime());
		ResponseUsage usage = new ResponseUsage(true);
		Flux<Publisher<DataBuffer>> stream = Flux.just(
				Flux.just(event("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n")),
				Flux.just(event("data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n")),
				Flux.just(event("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":2}}\n\n")),
				Flux.just(event("data: [DONE]\n\n")));

		new InferenceResponse(client, null, relayed, usage, Duration.ofSeconds(10)).writeAndFlushWith(stream).block();

		// the usage chunk the gateway asked for is not relayed; everything else is, in order
		assertThat(String.join("", written)).isEqualTo("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
				+ "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\ndata: [DONE]\n\n");
		assertThat(relayed.firstByteNanos()).isPositive();
		assertThat(usage.tokens(0, true)).isEqualTo(new TokenUsage(7, 2, true, 0));
		awaitAllReleased();
	}

	@Test
	void anUpstreamThatFailsMidStreamEndsTheStreamWithAnErrorEvent() {
		List<String> written = new CopyOnWriteArrayList<>();
		MockServerHttpResponse client = writingTo(written);
		RelayedResponse relayed = new RelayedResponse(System.nanoTime());
		Flux<Publisher<DataBuffer>> failing = Flux.<Publisher<DataBuffer>>just(Flux.just(event("data: {\"n\":0}\n\n")))
			.concatWith(Flux.error(new IllegalStateException("connection reset")));

		new InferenceResponse(client, dispatch(), relayed, null, null)
			.writeAndFlushWith(failing)
			.block();

		assertThat(written).hasSize(2);
		assertThat(written.get(1)).startsWith("data: {\"error\":").contains("upstream_stream_error");
		assertThat(relayed.failedMidStream()).isTrue();
	}

	/** A client that goes away after the first event: a slow socket, so the writer has read ahead of it. */
	private static MockServerHttpResponse clientLeavesAfterOneEvent(List<String> received) {
		return eventStream((body) -> body.concatMap((event) -> Mono.delay(Duration.ofMillis(20)).thenReturn(event), 32)
			.take(1)
			// the event written to the socket is released by the channel, and goes no further
			.map((event) -> {
				received.add(event.toString(StandardCharsets.UTF_8));
				return DataBufferUtils.release(event);
			})
			.then());
	}

	@Test
	void everyChunkTheWriterDroppedIsReleasedAndNoneTwice() {
		List<String> received = new CopyOnWriteArrayList<>();
		InferenceResponse response = new InferenceResponse(clientLeavesAfterOneEvent(received), null, null, null,
				null);
		// the test holds a reference of its own to each event's buffer, so a second release shows as a count of 0
		Flux<Publisher<DataBuffer>> events = tenEvents().doOnNext((event) -> sent.get(sent.size() - 1).retain());

		response.writeAndFlushWith(events).block();

		assertThat(sent).hasSize(10);
		assertThat(received).containsExactly("data: {\"n\":0}\n\n");
		await().atMost(Duration.ofSeconds(5)).until(() -> sent.stream().allMatch((buffer) -> buffer.refCnt() <= 1));
		assertThat(sent).as("reference counts left to the test").allMatch((buffer) -> buffer.refCnt() == 1);
	}

	@Test
	void aBufferTheWriterDiscardsOnTheWayToTheSocketIsReleasedToo() {
		MockServerHttpResponse client = eventStream(
				(body) -> body.concatMap((event) -> Mono.just(event).delayElement(Duration.ofMillis(200)), 32)
					.take(Duration.ofMillis(50))
					.doOnNext(DataBufferUtils::release)
					.then());

		new InferenceResponse(client, null, null, new ResponseUsage(false), null).writeAndFlushWith(tenEvents())
			.block();

		// the first event's buffer was discarded by the writer, the nine others never written
		assertThat(sent).hasSize(10);
		awaitAllReleased();
	}

	@Test
	void aLongStreamCutAfterManyEventsReleasesTheEventsQueuedAtTheEnd() {
		MockServerHttpResponse client = eventStream(
				(body) -> body.concatMap((event) -> Mono.delay(Duration.ofMillis(1)).thenReturn(event), 32)
					.take(150)
					.doOnNext(DataBufferUtils::release)
					.then());

		new InferenceResponse(client, null, null, null, Duration.ofSeconds(10)).writeAndFlushWith(events(1_000))
			.block();

		assertThat(sent).hasSizeGreaterThan(150);
		awaitAllReleased();
	}

	@Test
	void aChunkIsTakenWithoutSubscribingToItAndAChunkOfAnyOtherShapeIsRefused() {
		DataBuffer buffer = event("a");

		assertThat(InferenceResponse.buffer(Flux.just(buffer))).isSameAs(buffer);
		assertThat(InferenceResponse.buffer(Mono.just(buffer))).isSameAs(buffer);
		assertThat(InferenceResponse.buffer(Mono.empty())).isNull();
		assertThatIllegalArgumentException().isThrownBy(() -> InferenceResponse.buffer(Flux.just(buffer).hide()))
			.withMessageStartingWith("A stream chunk must be a publisher of one buffer");
		DataBufferUtils.release(buffer);
	}

	@Test
	void aChunkOfAnyOtherShapeEndsAnEventStreamWithAnErrorEventNotABrokenConnection() {
		List<String> written = new CopyOnWriteArrayList<>();
		MockServerHttpResponse client = writingTo(written);

		new InferenceResponse(client, dispatch(), null, null, null)
			.writeAndFlushWith(Flux.just(Flux.just(event("data: {\"n\":0}\n\n")).hide()))
			.block();

		assertThat(written).singleElement().asString().contains("upstream_stream_error");
	}
}
