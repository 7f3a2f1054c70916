package io.infergate.gateway.capture;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Gzip at deflate's fastest level: capture records are mostly keyed hashes, which no level compresses much, and
 * whoever writes them shares the gateway's cores.
 */
public final class FastGzipOutputStream extends GZIPOutputStream {

	public FastGzipOutputStream(OutputStream out, int bufferSize, boolean syncFlush) throws IOException {
		super(out, bufferSize, syncFlush);
		def.setLevel(Deflater.BEST_SPEED);
	}
}
