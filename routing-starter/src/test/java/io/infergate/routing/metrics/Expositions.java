package io.infergate.routing.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The exposition texts under {@code src/test/resources/metrics/}, written in the shape each engine serves. */
final class Expositions {

	private Expositions() {
	}

	static byte[] bytes(String name) {
		try (InputStream in = Expositions.class.getResourceAsStream("/metrics/" + name)) {
			if (in == null) {
				throw new IllegalArgumentException("no test exposition " + name);
			}
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}
}
