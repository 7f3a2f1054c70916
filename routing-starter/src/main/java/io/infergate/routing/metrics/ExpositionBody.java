package io.infergate.routing.metrics;

import java.net.http.HttpResponse.BodySubscriber;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.function.BiConsumer;

/**
 * A response body read into one byte array.
 *
 * @param bytes the buffer holding the body, possibly longer than it
 * @param length the body's length in bytes
 */
record ExpositionBody(byte[] bytes, int length) {

	/**
	 * Reads a body and reports it, or why there is none, to {@code onDone} on the thread that delivers its end:
	 * one of the HTTP client's executor threads. Reporting here rather than through the future of
	 * {@code sendAsync} keeps the work off the extra hop that future takes through the common pool (a new thread
	 * per response where that pool has one thread or fewer).
	 * <p>
	 * A 200 body is collected into {@code buffer}, which grows as needed, and fails once it passes
	 * {@code maxBytes}; any other status is drained and reported as an {@link ScrapeFailure.HttpStatusException}.
	 * The buffer is lent by the scraper and handed back with the body, so an endpoint's scrapes reuse one buffer;
	 * a scrape that fails never hands it back, so a late write cannot reach a buffer in use again.
	 */
	static BodySubscriber<Void> subscriber(int status, byte[] buffer, int maxBytes,
			BiConsumer<ExpositionBody, Throwable> onDone) {
		return new Collector(status, buffer, maxBytes, onDone);
	}

	private static final class Collector implements BodySubscriber<Void> {

		private final CompletableFuture<Void> done = new CompletableFuture<>();

		private final int status;

		private final int maxBytes;

		private final BiConsumer<ExpositionBody, Throwable> onDone;

		private byte[] buffer;

		private int length;

		private Flow.Subscription subscription;

		Collector(int status, byte[] buffer, int maxBytes, BiConsumer<ExpositionBody, Throwable> onDone) {
			this.status = status;
			this.buffer = buffer;
			this.maxBytes = maxBytes;
			this.onDone = onDone;
		}

		@Override
		public CompletionStage<Void> getBody() {
			return done;
		}

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			this.subscription = subscription;
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public void onNext(List<ByteBuffer> items) {
			if (done.isDone() || status != 200) {
				return;
			}
			for (ByteBuffer item : items) {
				int remaining = item.remaining();
				if (remaining > maxBytes - length) {
					subscription.cancel();
					finish(null, new ScrapeFailure.BodyTooLargeException(maxBytes));
					return;
				}
				if (length + remaining > buffer.length) {
					buffer = Arrays.copyOf(buffer, Math.min(maxBytes, Math.max(length + remaining, 2 * buffer.length)));
				}
				item.get(buffer, length, remaining);
				length += remaining;
			}
		}

		@Override
		public void onError(Throwable failure) {
			finish(null, failure);
		}

		@Override
		public void onComplete() {
			if (status == 200) {
				finish(new ExpositionBody(buffer, length), null);
			}
			else {
				finish(null, new ScrapeFailure.HttpStatusException(status));
			}
		}

		private void finish(ExpositionBody body, Throwable failure) {
			if (!done.isDone()) {
				done.complete(null);
				onDone.accept(body, failure);
			}
		}
	}
}
