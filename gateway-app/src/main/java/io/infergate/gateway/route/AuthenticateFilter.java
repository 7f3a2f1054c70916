package io.infergate.gateway.route;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.auth.ApiKeys;
import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.error.OpenAiErrorResponses;
import io.infergate.routing.limits.Caller;

/**
 * Establishes who sent an inference request, before its body is read, and puts the {@link Caller} in its
 * {@link InferenceContext}. With authentication on, the client sends its secret as
 * {@code Authorization: Bearer <secret>} or {@code api-key: <secret>}; no key, a malformed {@code Authorization}
 * and a key that is not valid are each a 401 {@code invalid_api_key}. With it off every request is the anonymous
 * caller's. A client may lower (never raise) its key's priority with {@value #PRIORITY_HEADER}.
 * <p>
 * Neither the secret nor any part of it is logged; the credential headers are removed before the request goes to
 * a model server ({@link UpstreamCredentialHeadersFilter}).
 */
public class AuthenticateFilter implements GatewayFilter {

	public static final String API_KEY_HEADER = ApiKeys.API_KEY_HEADER;

	public static final String PRIORITY_HEADER = "x-infergate-priority";

	private static final Log logger = LogFactory.getLog(AuthenticateFilter.class);

	private final ApiKeys keys;

	public AuthenticateFilter(ApiKeys keys) {
		this.keys = keys;
	}


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.of(exchange);
		HttpHeaders headers = exchange.getRequest().getHeaders();
		ApiKeys.Authentication authentication = keys.authenticate(headers.getFirst(HttpHeaders.AUTHORIZATION),
				headers.getFirst(ApiKeys.API_KEY_HEADER));
		if (authentication.refused()) {
			logger.debug("Refused a request to " + exchange.getRequest().getPath() + ": " + authentication.failure());
			return unauthorized(exchange, authentication.failure());
		}
		Caller caller = authentication.caller();
		String priority = headers.getFirst(PRIORITY_HEADER);
		if (priority != null) {
			try {
				caller = caller.withPriorityAtMost(Integer.parseInt(priority.strip()));
			}
			catch (NumberFormatException ex) {
				return OpenAiErrorResponses.write(exchange, OpenAiError
					.badRequest("The " + PRIORITY_HEADER + " header must be an integer.", PRIORITY_HEADER));
			}
		}
		context.caller(caller);
		return chain.filter(exchange);
	}

	private static Mono<Void> unauthorized(ServerWebExchange exchange, String message) {
		exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
		return OpenAiErrorResponses.write(exchange, OpenAiError.invalidApiKey(message));
	}
}
