package io.infergate.gateway.capture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.infergate.routing.prefix.PrefixHasher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The capture's queue: a full queue drops and counts, a failed write stops the capture, stopping drains. */
class TrafficCaptureQueueTests {

	final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void aRecordOfferedToAFullQueueIsDroppedAndCounted() throws InterruptedException {
		BlockingFiles files = new BlockingFiles();
		TrafficCapture capture = new TrafficCapture(files, 1.0, 2, new PrefixHasher(64, 256), registry);
		capture.start();
		capture.offer(request(0));
		assertThat(files.writing.await(10, TimeUnit.SECONDS)).isTrue();
		for (int i = 1; i <= 5; i++) {
			capture.offer(request(i));
		}

		assertThat(count("dropped")).isEqualTo(3);
		files.release.countDown();
		capture.stop();
		assertThat(count("written")).isEqualTo(3);
		assertThat(files.lines).hasSize(3);
		assertThat(files.closed).isTrue();
	}

	@Test
	void aFailedWriteStopsTheCaptureWithoutFailingTheCaller() {
		CaptureFiles failing = new BlockingFiles() {
			@Override
			public void write(String line) throws IOException {
				throw new IOException("No space left on device");
			}
		};
		TrafficCapture capture = new TrafficCapture(failing, 1.0, 16, new PrefixHasher(64, 256), registry);
		capture.start();
		capture.offer(request(0));

		await().until(() -> count("failed") == 1);
		assertThat(capture.sample()).isFalse();
		capture.offer(request(1));
		capture.stop();
		assertThat(count("written")).isZero();
		assertThat(count("dropped")).isZero();
	}

	@Test
	void samplesAboutTheConfiguredShare() {
		TrafficCapture capture = new TrafficCapture(new BlockingFiles(), 0.25, 16, new PrefixHasher(64, 256), registry);
		capture.start();
		int sampled = 0;
		for (int i = 0; i < 20_000; i++) {
			sampled += capture.sample() ? 1 : 0;
		}
		capture.stop();

		assertThat(sampled).isBetween(4_500, 5_500);
		assertThat(capture.sample()).as("not once stopped").isFalse();
	}

	private double count(String outcome) {
		return registry.get(TrafficCapture.RECORDS).tag("outcome", outcome).counter().count();
	}

	static CapturedRequest request(int n) {
		return new CapturedRequest(1_700_000_000_000L + n, "/v1/chat/completions", "llama", "llama", "llama", null,
				"tenant", "key", 0, false, 10, false, "hello ".repeat(20), 16, 16, 200, true, 1_000_000, 2_000_000,
				"127.0.0.1:8000");
	}

	/** Files whose first write blocks until released. */
	static class BlockingFiles implements CaptureFiles {

		final CountDownLatch writing = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		final List<String> lines = new ArrayList<>();

		volatile boolean closed;

		@Override
		public void write(String line) throws IOException {
			writing.countDown();
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			lines.add(line);
		}

		@Override
		public void flush() {
		}

		@Override
		public void closeIfExpired() {
		}

		@Override
		public void close() {
			closed = true;
		}
	}
}
