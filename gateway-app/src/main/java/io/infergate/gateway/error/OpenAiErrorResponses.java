package io.infergate.gateway.error;

import java.nio.charset.StandardCharsets;

import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

/** Writes {@link OpenAiError}s, and the gateway's own answers in the OpenAI API, as complete JSON responses. */
public final class OpenAiErrorResponses {

	/** Every error the gateway writes says its type is exactly what it claims: never sniffed as HTML. */
	public static final String NOSNIFF_HEADER = "X-Content-Type-Options";

	private OpenAiErrorResponses() {
	}

	/** Writes {@code error} unless the response is already committed, in which case nothing can be said. */
	public static Mono<Void> write(ServerWebExchange exchange, OpenAiError error) {
		return writeJson(exchange, error.status(), error.toJson());
	}

	/** Writes {@code json} with {@code status} unless the response is already committed. */
	public static Mono<Void> writeJson(ServerWebExchange exchange, HttpStatusCode status, String json) {
		ServerHttpResponse response = exchange.getResponse();
		if (response.isCommitted()) {
			return Mono.empty();
		}
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		response.setStatusCode(status);
		response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
		response.getHeaders().set(NOSNIFF_HEADER, "nosniff");
		response.getHeaders().setContentLength(body.length);
		DataBuffer buffer = response.bufferFactory().wrap(body);
		return response.writeWith(Mono.just(buffer));
	}
}
