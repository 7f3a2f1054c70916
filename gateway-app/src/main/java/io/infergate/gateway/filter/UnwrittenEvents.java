package io.infergate.gateway.filter;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

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
 * has ended, read here and released: never both, whichever comes first. A buffer the writer discards after reading
 * its event, before converting it to Netty's own type, reaches the write's discard hook, {@link #releaseDiscarded}.
 */
final class UnwrittenEvents {

	private final Set<Event> unread = ConcurrentHashMap.newKeySet();

	/** {@code event}, as a publisher that the writer reads once or {@link #releaseUnread} releases. */
	Publisher<DataBuffer> track(Publisher<? extends DataBuffer> event) {
		Event tracked = new Event(event);
		unread.add(tracked);
		return tracked;
	}

	/** Releases every event the writer has not read; for when the write has ended, however it ended. */
	void releaseUnread() {
		for (Event event : unread) {
			event.release();
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

	/** How many events wait unread. */
	int unread() {
		return unread.size();
	}

	private final class Event implements Publisher<DataBuffer> {

		private final Publisher<? extends DataBuffer> source;

		private final AtomicBoolean taken = new AtomicBoolean();

		private Event(Publisher<? extends DataBuffer> source) {
			this.source = source;
		}

		@Override
		public void subscribe(Subscriber<? super DataBuffer> subscriber) {
			if (taken.compareAndSet(false, true)) {
				unread.remove(this);
				Flux.<DataBuffer>from(source).subscribe(subscriber);
			}
			else {
				// released already: the write ended before it reached this event
				Flux.<DataBuffer>empty().subscribe(subscriber);
			}
		}

		private void release() {
			if (taken.compareAndSet(false, true)) {
				unread.remove(this);
				Flux.<DataBuffer>from(source).subscribe(DataBufferUtils::release, (ex) -> {
				});
			}
		}
	}
}
