package io.infergate.gateway.filter;

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
		HttpHeaders copy = new HttpHeaders();
		copy.putAll(delegate.getHeaders());
		copy.remove(HttpHeaders.TRANSFER_ENCODING);
		copy.setContentLength(body.length);
		this.headers = HttpHeaders.readOnlyHttpHeaders(copy);
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
