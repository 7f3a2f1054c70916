package io.infergate.gateway.route;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Schedulers;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.logging.RepeatedLines;
import io.infergate.gateway.observe.RelayedResponse;
import io.infergate.routing.dispatch.Dispatch;

/**
 * The response to an inference request. When the upstream fails in the middle of an SSE stream, the client
 * gets a final {@code data: {"error": ...}} event and a cleanly ended stream, instead of a cut connection or a
 * stream that never ends. Every body buffer passes the request's {@link RelayedResponse} on its way out.
 */
final class InferenceResponse extends ServerHttpResponseDecorator {

	private static final Log logger = LogFactory.getLog(InferenceResponse.class);

	private static final RepeatedLines repeated = new RepeatedLines();

	private final Dispatch dispatch;

	private final RelayedResponse relayed;

	private final Duration streamIdleTimeout;

	/**
	 * @param relayed what the gateway records of the response, or {@code null}
	 * @param streamIdleTimeout the longest silence allowed in a stream, or {@code null} for none
	 */
	InferenceResponse(ServerHttpResponse delegate, Dispatch dispatch, RelayedResponse relayed,
			Duration streamIdleTimeout) {
		super(delegate);
		this.dispatch = dispatch;
		this.relayed = relayed;
		this.streamIdleTimeout = streamIdleTimeout;
	}

	@Override
	public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
		return super.writeWith((relayed != null) ? Flux.from(body).doOnNext(relayed::onBody) : body);
	}

	/**
	 * Writes a stream event by event. Events the writer drops unread when the client goes away are released here
	 * ({@link UnwrittenEvents}), and are not counted as relayed.
	 */
	@Override
	public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
		UnwrittenEvents unwritten = new UnwrittenEvents();
		StreamIdleDeadline deadline = (streamIdleTimeout != null && isEventStream())
				? new StreamIdleDeadline(streamIdleTimeout, Schedulers.parallel()) : null;
		// One step per event, and as little as possible in it: the first byte is timed only until it has gone out.
		Flux<Publisher<? extends DataBuffer>> events = Flux.<Publisher<? extends DataBuffer>>from(body).map((event) -> {
			if (deadline != null) {
				deadline.touch();
			}
			Publisher<? extends DataBuffer> tracked = unwritten.track(event);
			return (relayed != null && relayed.firstByteNanos() == 0) ? Flux.from(tracked).doOnNext(relayed::onBody)
					: tracked;
		});
		if (deadline != null) {
			// Cancelling the upstream body closes the connection to the silent model server.
			events = events.doOnTerminate(deadline::finish)
				.takeUntilOther(deadline.expiry())
				.concatWith(Flux.defer(() -> deadline.expired() ? Flux.error(new StreamIdleTimeoutException(
						"no event for " + streamIdleTimeout.toMillis() + " ms")) : Flux.empty()));
		}
		events = events.onErrorResume(
				(ex) -> isEventStream() ? Flux.just(unwritten.track(Mono.just(errorEvent(ex)))) : Flux.error(ex));
		return super.writeAndFlushWith(events)
			.doFinally((signal) -> unwritten.releaseUnread())
			.contextWrite((context) -> Operators.enableOnDiscard(context, UnwrittenEvents::releaseDiscarded));
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
