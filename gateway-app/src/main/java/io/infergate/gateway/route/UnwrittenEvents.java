package io.infergate.gateway.route;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

/**
 * The events of one streamed response that the server's writer has been handed but has not read yet, so that their
 * buffers can be released when the writer drops them.
 * <p>
 * A stream reaches the client as a publisher of one-event publishers. Reactor Netty writes it with {@code
 * concatMap}, which keeps up to 32 events waiting while the client reads slowly; when the client goes away, it
 * discards the waiting ones unread, and its discard hook releases only buffers, not the publishers around them. Each
 * such event keeps its model-server chunk (and the network buffer the chunk is a slice of) until the garbage
 * collector finds it, which Netty reports as a leak. Every event here is either read by the writer or, once the write
 * has ended, read here and released: never both, whichever comes first. The writer reads events in order and holds
 * at most 33 unread, so only the last {@value #WINDOW} are kept. A buffer the writer discards after reading
 * its event, before converting it to Netty's own type, reaches the write's discard hook, {@link #releaseDiscarded}.
 */
final class UnwrittenEvents {

	/**
	 * More events than the writer can hold unread: Reactor Netty's {@code concatMap} asks for 32 ahead of the one it
	 * reads, and nothing between this decorator and it buffers events.
	 */
	static final int WINDOW = 64;

	private final AtomicReferenceArray<Event> recent = new AtomicReferenceArray<>(WINDOW);

	/** Events tracked so far; only the one thread signalling the stream at a time writes it. */
	private int tracked;

	/** {@code event}, as a publisher that the writer reads once or {@link #releaseUnread} releases. */
	Publisher<DataBuffer> track(Publisher<? extends DataBuffer> event) {
		Event wrapped = new Event(event);
		recent.lazySet(tracked++ & (WINDOW - 1), wrapped);
		return wrapped;
	}

	/** Releases every event the writer has not read; for when the write has ended, however it ended. */
	void releaseUnread() {
		for (int i = 0; i < WINDOW; i++) {
			Event event = recent.get(i);
			if (event != null) {
				event.release();
			}
		}
	}

	/**
	 * Releases a buffer the writer discarded: Reactor Netty's discard hook releases Netty's own buffers and hands
	 * anything else, such as a Spring buffer the writer had not converted yet, to the hook of the write's context.
	 */
	static void releaseDiscarded(Object discarded) {
		if (discarded instanceof DataBuffer buffer) {
			DataBufferUtils.release(buffer);
		}
	}

	/** How many of the last {@value #WINDOW} events wait unread. */
	int unread() {
		int unread = 0;
		for (int i = 0; i < WINDOW; i++) {
			Event event = recent.get(i);
			if (event != null && !event.get()) {
				unread++;
			}
		}
		return unread;
	}

	/** One event: {@code true} once taken, by the writer or to be released. */
	@SuppressWarnings("serial")
	private static final class Event extends AtomicBoolean implements Publisher<DataBuffer> {

		private final transient Publisher<? extends DataBuffer> source;

		private Event(Publisher<? extends DataBuffer> source) {
			this.source = source;
		}

		@Override
		public void subscribe(Subscriber<? super DataBuffer> subscriber) {
			if (compareAndSet(false, true)) {
				Flux.<DataBuffer>from(source).subscribe(subscriber);
			}
			else {
				// released already: the write ended before it reached this event
				Flux.<DataBuffer>empty().subscribe(subscriber);
			}
		}

		private void release() {
			if (compareAndSet(false, true)) {
				Flux.<DataBuffer>from(source).subscribe(DataBufferUtils::release, (ex) -> {
				});
			}
		}
	}
}
