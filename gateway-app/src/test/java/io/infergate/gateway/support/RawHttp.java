package io.infergate.gateway.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Reads HTTP/1.1 responses off a raw socket, for tests that must control the connection byte by byte. */
public final class RawHttp {

	private RawHttp() {
	}

	/** One response's head and body (by its Content-Length, or chunked), or {@code null} at the end of the stream. */
	public static String readResponse(InputStream in) throws IOException {
		String head = readUntil(in, "\r\n\r\n");
		if (head == null) {
			return null;
		}
		String lowerCase = head.toLowerCase(Locale.ROOT);
		if (lowerCase.contains("transfer-encoding: chunked")) {
			String body = readUntil(in, "\r\n0\r\n\r\n");
			return (body == null) ? null : head + body;
		}
		int length = 0;
		for (String line : lowerCase.split("\r\n")) {
			if (line.startsWith("content-length:")) {
				length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
			}
		}
		byte[] body = in.readNBytes(length);
		return (body.length < length) ? null : head + new String(body, StandardCharsets.UTF_8);
	}

	/** The bytes up to and including {@code end}, or {@code null} if the stream ends first. */
	public static String readUntil(InputStream in, String end) throws IOException {
		ByteArrayOutputStream read = new ByteArrayOutputStream();
		while (!read.toString(StandardCharsets.ISO_8859_1).endsWith(end)) {
			int b = in.read();
			if (b == -1) {
				return null;
			}
			read.write(b);
		}
		return read.toString(StandardCharsets.UTF_8);
	}
}
