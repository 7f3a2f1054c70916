package io.infergate.gateway.error;

import java.util.List;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;

import io.infergate.gateway.logging.RepeatedLines;
import io.infergate.routing.RoutingOutcome;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.request.InfergateAttributes;

/**
 * Renders every failure on the API as an OpenAI-style JSON error with a fitting status. Runs before Spring
 * Boot's default handler, so no client ever sees an HTML page or a stack trace; unexpected failures are logged
 * here with their stack trace instead.
 */
@Order(-2)
public class OpenAiErrorWebExceptionHandler implements WebExceptionHandler {

	private static final Log logger = LogFactory.getLog(OpenAiErrorWebExceptionHandler.class);

	private static final RepeatedLines repeated = new RepeatedLines();

	private final long maxBodyBytes;

	public OpenAiErrorWebExceptionHandler(long maxBodyBytes) {
		this.maxBodyBytes = maxBodyBytes;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
		if (exchange.getResponse().isCommitted()) {
			return Mono.error(ex);
		}
		return OpenAiErrorResponses.write(exchange, toError(exchange, ex));
	}

	OpenAiError toError(ServerWebExchange exchange, Throwable ex) {
		Dispatch dispatch = exchange.getAttribute(InfergateAttributes.DISPATCH);
		if (ex instanceof DataBufferLimitException) {
			return OpenAiError.bodyTooLarge(maxBodyBytes);
		}
		if (UpstreamFailures.beforeResponse(ex)) {
			return OpenAiError.unavailable("Could not reach a model server, or it failed before answering"
					+ tried(dispatch) + ".");
		}
		if (ex instanceof ResponseStatusException statusException) {
			return fromStatus(exchange, statusException.getStatusCode(), statusException.getReason(), dispatch);
		}
		String line = repeated.admit("unexpected:" + ex.getClass().getName(), "Unexpected failure handling "
				+ exchange.getRequest().getMethod() + " " + OpenAiError.echo(exchange.getRequest().getPath().value()));
		if (line != null) {
			logger.error(line, ex);
		}
		return new OpenAiError(HttpStatus.INTERNAL_SERVER_ERROR, "The gateway failed to handle the request.",
				"server_error", null, "internal_error");
	}

	private OpenAiError fromStatus(ServerWebExchange exchange, HttpStatusCode status, String reason,
			Dispatch dispatch) {
		int code = status.value();
		HttpStatus httpStatus = HttpStatus.resolve(code);
		if (httpStatus == null) {
			httpStatus = status.is4xxClientError() ? HttpStatus.BAD_REQUEST : HttpStatus.INTERNAL_SERVER_ERROR;
		}
		String path = exchange.getRequest().getPath().value();
		String method = OpenAiError.echo(exchange.getRequest().getMethod().name());
		if (code == 404 || code == 405) {
			HttpMethod allowed = ApiMethods.allowedOn(path);
			if (allowed != null && !allowed.equals(exchange.getRequest().getMethod())) {
				exchange.getResponse().getHeaders().setAllow(Set.of(allowed));
				return new OpenAiError(HttpStatus.METHOD_NOT_ALLOWED, "Method " + method + " is not allowed on "
						+ path + "; use " + allowed.name() + ".", "invalid_request_error", null, "method_not_allowed");
			}
		}
		if (code == 404) {
			return new OpenAiError(HttpStatus.NOT_FOUND, "Unknown request URL: " + method + " "
					+ OpenAiError.echo(path) + ".", "invalid_request_error", null, "unknown_url");
		}
		if (code == 405) {
			return new OpenAiError(HttpStatus.METHOD_NOT_ALLOWED, "Method " + method + " is not allowed on "
					+ OpenAiError.echo(path) + ".", "invalid_request_error", null, "method_not_allowed");
		}
		if (code == 503) {
			RoutingOutcome outcome = (dispatch != null) ? dispatch.lastOutcome() : null;
			String why = (outcome != null && outcome.reason() != null) ? outcome.reason() : "no endpoint is available";
			return OpenAiError.unavailable("No model server can take the request: " + why + tried(dispatch) + ".");
		}
		if (code == 504) {
			return new OpenAiError(HttpStatus.GATEWAY_TIMEOUT,
					"The model server" + tried(dispatch) + " did not answer within the response timeout.", "timeout",
					null, "upstream_timeout");
		}
		if (status.is4xxClientError()) {
			return new OpenAiError(httpStatus, (reason != null) ? reason : httpStatus.getReasonPhrase(),
					"invalid_request_error", null, null);
		}
		String line = repeated.admit("status:" + code, "Request " + OpenAiError.echo(path) + " failed with " + code
				+ ": " + reason);
		if (line != null) {
			logger.warn(line);
		}
		return new OpenAiError(httpStatus, "The gateway failed to handle the request (" + code + ").",
				"server_error", null, null);
	}

	private static String tried(Dispatch dispatch) {
		if (dispatch == null) {
			return "";
		}
		List<EndpointId> tried = dispatch.tried();
		return tried.isEmpty() ? "" : " (tried " + tried + ")";
	}
}
