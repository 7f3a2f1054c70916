package io.infergate.gateway.capture;

import java.io.IOException;

/** Where the capture's writer thread puts its lines: {@link RotatingCaptureFiles}, or a test's own. */
interface CaptureFiles {

	/** Appends one line (without its line break). */
	void write(String line) throws IOException;

	/** Makes what was written so far readable; called whenever the queue runs empty. */
	void flush() throws IOException;

	/** Closes the current file, if it is older than its age limit, so an idle capture leaves it complete. */
	void closeIfExpired() throws IOException;

	/** Closes the current file, so it is complete. */
	void close() throws IOException;
}
