package io.infergate.gateway.route;

import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;

/**
 * The request with its body already read (and possibly rewritten). Every subscription to the body gets a fresh
 * buffer over the same bytes, so a retry re-sends it whole.
 */
final class CachedBodyRequest extends ServerHttpRequestDecorator {

	private final byte[] body;

	private final DataBufferFactory bufferFactory;

	private final HttpHeaders headers;

	CachedBodyRequest(ServerHttpRequest delegate, byte[] body, DataBufferFactory bufferFactory) {
		super(delegate);
		this.body = body;
		this.bufferFactory = bufferFactory;
		this.headers = headersFor(delegate.getHeaders(), body.length);
	}

	/** The client's headers when they already declare this body, else a copy that does. */
	private static HttpHeaders headersFor(HttpHeaders sent, int length) {
		if (sent.getContentLength() == length && !sent.containsHeader(HttpHeaders.TRANSFER_ENCODING)) {
			return sent;
		}
		HttpHeaders copy = new HttpHeaders();
		copy.putAll(sent);
		copy.remove(HttpHeaders.TRANSFER_ENCODING);
		copy.setContentLength(length);
		return HttpHeaders.readOnlyHttpHeaders(copy);
	}

	/** The body as it will be sent. */
	byte[] body() {
		return body;
	}

	@Override
	public HttpHeaders getHeaders() {
		return headers;
	}

	@Override
	public Flux<DataBuffer> getBody() {
		return Flux.defer(() -> Flux.just(bufferFactory.wrap(body)));
	}
}
