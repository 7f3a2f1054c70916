package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.netty.channel.Channel;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Fuseable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Schedulers;
import reactor.netty.Connection;
import reactor.util.context.Context;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.logging.RepeatedLines;
import io.infergate.gateway.observe.RelayedResponse;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.openai.ResponseUsage;

/**
 * The response to an inference request, relayed with one step per body buffer: the first byte is timed
 * ({@link RelayedResponse}), the tokens used are read ({@link ResponseUsage}) and a stream's idle deadline moves. When
 * the upstream fails in the middle of an SSE stream, the client gets a final {@code data: {"error": ...}} event and a
 * cleanly ended stream, instead of a cut connection or a stream that never ends.
 * <p>
 * A stream arrives as Spring Cloud Gateway hands it over, one single-buffer publisher per model-server chunk, for a
 * write that flushes each one on its own. It leaves as one flat sequence of buffers instead, which Reactor Netty
 * writes as they come, each flushed as soon as it is written ({@link FlushEach}): no publisher, subscription or group
 * boundary is made per event.
 */
final class InferenceResponse extends ServerHttpResponseDecorator {

	private static final Log logger = LogFactory.getLog(InferenceResponse.class);

	private static final RepeatedLines repeated = new RepeatedLines();

	private final Dispatch dispatch;

	private final RelayedResponse relayed;

	private final ResponseUsage usage;

	private final Duration streamIdleTimeout;

	/**
	 * @param relayed what the gateway records of the response, or {@code null}
	 * @param usage reads the tokens the response reports, or {@code null}
	 * @param streamIdleTimeout the longest silence allowed in a stream, or {@code null} for none
	 */
	InferenceResponse(ServerHttpResponse delegate, Dispatch dispatch, RelayedResponse relayed, ResponseUsage usage,
			Duration streamIdleTimeout) {
		super(delegate);
		this.dispatch = dispatch;
		this.relayed = relayed;
		this.usage = usage;
		this.streamIdleTimeout = streamIdleTimeout;
	}

	@Override
	public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
		if (relayed == null && usage == null) {
			return super.writeWith(body);
		}
		return super.writeWith(Flux.from(body).doOnNext((buffer) -> {
			if (relayed != null) {
				relayed.onBody(buffer);
			}
			if (usage != null) {
				usage.readJson(buffer);
			}
		}));
	}

	/**
	 * Writes a stream as one flat sequence of buffers (the delegate's {@code writeWith}), taking each chunk's buffer as it passes, so
	 * that nothing here holds a chunk: a buffer the write drops unread when the client goes away is released by the
	 * write's discard hook, {@link #releaseDiscarded}, and the chunks not yet read stay with the connection, which
	 * releases them when it is cancelled.
	 */
	@Override
	public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
		boolean eventStream = isEventStream();
		StreamIdleDeadline deadline = (streamIdleTimeout != null && eventStream)
				? new StreamIdleDeadline(streamIdleTimeout, Schedulers.parallel()) : null;
		DataBufferFactory factory = bufferFactory();
		// One step per buffer, and as little as possible in it. Not handle(): with context propagation on, Reactor
		// restores the request's thread-locals (its tracing scope) around every handle() call, for every event.
		Flux<DataBuffer> buffers = Flux.from(body).mapNotNull((chunk) -> {
			DataBuffer buffer = buffer(chunk);
			if (buffer == null) {
				return null;
			}
			if (deadline != null) {
				deadline.touch();
			}
			if (relayed != null && relayed.firstByteNanos() == 0) {
				relayed.onBody(buffer);
			}
			return (usage != null) ? usage.readEvents(buffer, factory) : buffer;
		});
		if (usage != null) {
			buffers = buffers.concatWith(Mono.fromSupplier(usage::unfinishedEvent)
				.filter((rest) -> rest.length > 0)
				.map(factory::wrap));
		}
		if (deadline != null) {
			// Cancelling the upstream body closes the connection to the silent model server.
			buffers = buffers.doOnTerminate(deadline::finish)
				.takeUntilOther(deadline.expiry())
				.concatWith(Flux.defer(() -> deadline.expired() ? Flux.error(new StreamIdleTimeoutException(
						"no event for " + streamIdleTimeout.toMillis() + " ms")) : Flux.empty()));
		}
		buffers = buffers.onErrorResume((ex) -> eventStream ? Mono.fromSupplier(() -> errorEvent(ex)) : Flux.error(ex));
		Channel channel = channel(getDelegate());
		if (channel != null) {
			Flux<DataBuffer> unflushed = buffers;
			buffers = new Flux<DataBuffer>() {
				@Override
				public void subscribe(CoreSubscriber<? super DataBuffer> writer) {
					unflushed.subscribe(new FlushEach(writer, channel));
				}
			};
		}
		return getDelegate().writeWith(buffers)
			.contextWrite((context) -> Operators.enableOnDiscard(context, InferenceResponse::releaseDiscarded));
	}

	/** The connection to the client, or {@code null} when the response is not Reactor Netty's. */
	private static Channel channel(ServerHttpResponse response) {
		try {
			Object nativeResponse = ServerHttpResponseDecorator.getNativeResponse(response);
			return (nativeResponse instanceof Connection connection) ? connection.channel() : null;
		}
		catch (IllegalArgumentException | IllegalStateException ex) {
			// no native response below it (a test's mock)
			return null;
		}
	}

	/**
	 * Flushes the client's connection once each buffer has been handed to the writer. Reactor Netty writes a buffer
	 * as it receives it, on the connection's event loop, but leaves the flush for a task that runs only after the event
	 * loop has read every other connection that was ready: with a thousand streams that held events for milliseconds.
	 * Off the event loop the writer flushes as before.
	 */
	private static final class FlushEach implements CoreSubscriber<DataBuffer>, Subscription {

		private final CoreSubscriber<? super DataBuffer> writer;

		private final Channel channel;

		private Subscription upstream;

		FlushEach(CoreSubscriber<? super DataBuffer> writer, Channel channel) {
			this.writer = writer;
			this.channel = channel;
		}

		@Override
		public Context currentContext() {
			return writer.currentContext();
		}

		@Override
		public void onSubscribe(Subscription subscription) {
			upstream = subscription;
			writer.onSubscribe(this);
		}

		@Override
		public void onNext(DataBuffer buffer) {
			writer.onNext(buffer);
			if (channel.eventLoop().inEventLoop()) {
				channel.flush();
			}
		}

		@Override
		public void onError(Throwable ex) {
			writer.onError(ex);
		}

		@Override
		public void onComplete() {
			writer.onComplete();
		}

		@Override
		public void request(long n) {
			upstream.request(n);
		}

		@Override
		public void cancel() {
			upstream.cancel();
		}
	}

	/**
	 * The buffer of a chunk as Spring Cloud Gateway hands it over: a publisher of one buffer, known without
	 * subscribing to it; {@code null} for an empty one.
	 * @throws IllegalArgumentException for any other publisher, which this response does not relay (its buffers are
	 * released)
	 */
	static DataBuffer buffer(Publisher<? extends DataBuffer> chunk) {
		if (chunk instanceof Fuseable.ScalarCallable<?> scalar) {
			try {
				return (DataBuffer) scalar.call();
			}
			catch (Exception ex) {
				throw new IllegalArgumentException("A stream chunk failed to give its buffer", ex);
			}
		}
		Flux.from(chunk).subscribe(DataBufferUtils::release, (ex) -> {
		});
		throw new IllegalArgumentException("A stream chunk must be a publisher of one buffer, not " + chunk);
	}

	/** Releases a buffer the write dropped, read ahead and never written because the client went away. */
	static void releaseDiscarded(Object discarded) {
		if (discarded instanceof DataBuffer buffer) {
			DataBufferUtils.release(buffer);
		}
	}

	/** A stream that stayed silent longer than its pool's {@code timeouts.stream-idle}. */
	static final class StreamIdleTimeoutException extends RuntimeException {

		StreamIdleTimeoutException(String message) {
			super(message, null, false, false);
		}
	}

	private boolean isEventStream() {
		MediaType contentType = getHeaders().getContentType();
		return contentType != null && MediaType.TEXT_EVENT_STREAM.isCompatibleWith(contentType);
	}

	private DataBuffer errorEvent(Throwable ex) {
		if (relayed != null) {
			relayed.onFailedMidStream();
		}
		boolean idle = ex instanceof StreamIdleTimeoutException;
		String line = repeated.admit(idle ? "stream-idle" : "stream-failure", "Upstream " + dispatch.lastEndpoint()
				+ (idle ? " went silent mid-stream: " : " failed mid-stream: ") + ex);
		if (line != null) {
			logger.warn(line);
		}
		OpenAiError error = idle
				? new OpenAiError(HttpStatus.GATEWAY_TIMEOUT, "The model server " + dispatch.lastEndpoint()
						+ " sent nothing for longer than the stream idle timeout.", "timeout", null,
						"upstream_stream_timeout")
				: new OpenAiError(HttpStatus.BAD_GATEWAY,
						"The model server " + dispatch.lastEndpoint() + " failed while streaming the response.",
						"server_error", null, "upstream_stream_error");
		byte[] event = ("data: " + error.toJson() + "\n\n").getBytes(StandardCharsets.UTF_8);
		return bufferFactory().wrap(event);
	}
}
