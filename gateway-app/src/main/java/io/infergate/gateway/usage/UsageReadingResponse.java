package io.infergate.gateway.usage;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

import io.infergate.routing.openai.ResponseUsage;

/** The response of an inference request, read by a {@link ResponseUsage} as it is relayed. */
public final class UsageReadingResponse extends ServerHttpResponseDecorator {

	private final ResponseUsage usage;

	public UsageReadingResponse(ServerHttpResponse delegate, ResponseUsage usage) {
		super(delegate);
		this.usage = usage;
	}

	@Override
	public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
		return super.writeWith(Flux.from(body).doOnNext(usage::readJson));
	}

	@Override
	public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
		Flux<Publisher<? extends DataBuffer>> events = Flux.from(body)
			.<Publisher<? extends DataBuffer>>map((chunk) -> Flux.from(chunk)
				.map((buffer) -> usage.readEvents(buffer, bufferFactory())))
			.concatWith(Mono.fromSupplier(usage::unfinishedEvent)
				.filter((rest) -> rest.length > 0)
				.map((rest) -> Mono.just(bufferFactory().wrap(rest))));
		return super.writeAndFlushWith(events);
	}
}
