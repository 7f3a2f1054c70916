package io.infergate.gateway.route;

import java.util.Optional;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.error.OpenAiErrorResponses;
import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.OpenAiRequestParser;
import io.infergate.routing.openai.ParsedRequest;

/**
 * Reads an inference request's body once, under the size limit (413 as soon as the body passes it, however it is
 * sent), and parses the fields the gateway needs (400 for a body that is not a valid request). The body and the
 * parsed fields go to the request's {@link InferenceContext}.
 */
public class ReadRequestFilter implements GatewayFilter {

	private final OpenAiRequestParser parser = new OpenAiRequestParser();

	private final long maxBodyBytes;

	public ReadRequestFilter(long maxBodyBytes) {
		this.maxBodyBytes = maxBodyBytes;
	}


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.of(exchange);
		if (exchange.getRequest().getHeaders().getContentLength() > maxBodyBytes) {
			return tooLarge(exchange);
		}
		return DataBufferUtils.join(exchange.getRequest().getBody(), (int) Math.min(maxBodyBytes, Integer.MAX_VALUE))
			.map((buffer) -> {
				byte[] bytes = new byte[buffer.readableByteCount()];
				buffer.read(bytes);
				DataBufferUtils.release(buffer);
				return Optional.of(bytes);
			})
			.defaultIfEmpty(Optional.of(new byte[0]))
			.onErrorResume(DataBufferLimitException.class, (ex) -> Mono.just(Optional.empty()))
			.flatMap((body) -> body.isPresent() ? parse(exchange, chain, context, body.get()) : tooLarge(exchange));
	}

	/**
	 * Answers 413 as soon as the body passes the limit, without reading the rest: memory stays bounded by the
	 * limit whatever the client sends. The connection is closed after the answer, since the unread rest of the body
	 * makes it unusable; clients that read while they send (as HTTP/1.1 asks them to) see the answer.
	 */
	private Mono<Void> tooLarge(ServerWebExchange exchange) {
		exchange.getResponse().getHeaders().setConnection("close");
		return OpenAiErrorResponses.write(exchange, OpenAiError.bodyTooLarge(maxBodyBytes));
	}

	private Mono<Void> parse(ServerWebExchange exchange, GatewayFilterChain chain, InferenceContext context,
			byte[] body) {
		ParsedRequest parsed;
		try {
			parsed = parser.parse(body, context.api());
		}
		catch (InvalidRequestException ex) {
			return OpenAiErrorResponses.write(exchange, OpenAiError.invalidRequest(ex));
		}
		context.read(body, parsed);
		if (parsed.priority() != null) {
			// as with x-infergate-priority: a client may lower its key's priority, never raise it
			context.caller(context.caller().withPriorityAtMost(parsed.priority()));
		}
		return chain.filter(exchange);
	}
}
