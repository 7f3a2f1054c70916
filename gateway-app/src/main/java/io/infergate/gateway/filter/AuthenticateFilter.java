package io.infergate.gateway.filter;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.auth.ApiKey;
import io.infergate.gateway.auth.ApiKeys;
import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.error.OpenAiErrorResponses;
import io.infergate.routing.admission.Caller;
import io.infergate.routing.request.InfergateAttributes;

/**
 * Establishes who sent an inference request, before its body is read, and puts the {@link Caller} in
 * {@link InfergateAttributes#CALLER}. With authentication on, the client sends its secret as
 * {@code Authorization: Bearer <secret>} or {@code api-key: <secret>}; no key, a malformed {@code Authorization}
 * and a key that is not valid are each a 401 {@code invalid_api_key}. With it off every request is the anonymous
 * caller's. A client may lower (never raise) its key's priority with {@value #PRIORITY_HEADER}.
 * <p>
 * Neither the secret nor any part of it is logged; the credential headers are removed before the request goes to
 * a model server ({@link UpstreamCredentialHeadersFilter}).
 */
public class AuthenticateFilter implements GlobalFilter, Ordered {

	public static final String API_KEY_HEADER = "api-key";

	public static final String PRIORITY_HEADER = "x-infergate-priority";

	private static final Log logger = LogFactory.getLog(AuthenticateFilter.class);

	private static final String BEARER = "Bearer ";

	private final ApiKeys keys;

	public AuthenticateFilter(ApiKeys keys) {
		this.keys = keys;
	}

	@Override
	public int getOrder() {
		return RequestPathOrder.AUTHENTICATE;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		if (InferenceExchanges.api(exchange) == null) {
			return chain.filter(exchange);
		}
		HttpHeaders headers = exchange.getRequest().getHeaders();
		Caller caller = Caller.anonymous();
		if (keys.enabled()) {
			String secret;
			String authorization = headers.getFirst(HttpHeaders.AUTHORIZATION);
			if (authorization != null) {
				secret = bearerToken(authorization);
				if (secret == null) {
					return unauthorized(exchange, "The Authorization header must be 'Bearer <your API key>'.");
				}
			}
			else {
				secret = headers.getFirst(API_KEY_HEADER);
				if (secret == null || secret.isBlank()) {
					return unauthorized(exchange, "No API key was provided. Send it in an 'Authorization: Bearer "
							+ "<your API key>' header or an 'api-key' header.");
				}
				secret = secret.strip();
			}
			ApiKey key = keys.authenticate(secret);
			if (key == null) {
				logger.debug("Refused a request to " + exchange.getRequest().getPath() + ": unknown API key");
				return unauthorized(exchange, "The API key provided is not valid.");
			}
			caller = key.caller();
		}
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
		exchange.getAttributes().put(InfergateAttributes.CALLER, caller);
		return chain.filter(exchange);
	}

	/** The token of {@code Bearer <token>}, or {@code null} when the header has another form. */
	private static String bearerToken(String authorization) {
		if (!authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			return null;
		}
		String token = authorization.substring(BEARER.length()).strip();
		for (int i = 0; i < token.length(); i++) {
			if (Character.isWhitespace(token.charAt(i))) {
				return null;
			}
		}
		return token.isEmpty() ? null : token;
	}

	private static Mono<Void> unauthorized(ServerWebExchange exchange, String message) {
		exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
		return OpenAiErrorResponses.write(exchange, OpenAiError.invalidApiKey(message));
	}
}
