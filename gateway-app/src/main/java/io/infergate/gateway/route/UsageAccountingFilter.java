package io.infergate.gateway.route;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.openai.ResponseUsage;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.ParsedRequest;

/**
 * Sets up the reading of the tokens each response uses ({@link ResponseUsage}, kept in the {@link InferenceContext}
 * for the limits to settle with, and for the token metrics and the access log, so it runs whether limits are on or
 * not; the response reads it as it relays the body, {@link InferenceResponse}). A streamed request whose client did not ask for {@code stream_options.include_usage} is sent asking for it,
 * and the usage chunk is removed from what the client receives, so the client gets the bytes it would have got
 * without the gateway.
 */
public class UsageAccountingFilter implements GatewayFilter {


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.find(exchange);
		ParsedRequest parsed = context.parsed();
		// stream_options is chat's and text completions'; the Responses API always reports usage at the end
		InferenceApi api = context.api();
		boolean askForUsage = parsed.stream() && !parsed.includeUsage()
				&& (api == InferenceApi.CHAT_COMPLETIONS || api == InferenceApi.COMPLETIONS)
				&& exchange.getRequest() instanceof CachedBodyRequest;
		context.usage(new ResponseUsage(askForUsage));
		if (!askForUsage) {
			return chain.filter(exchange);
		}
		CachedBodyRequest request = (CachedBodyRequest) exchange.getRequest();
		byte[] body = StreamOptionsRewriter.includeUsage(request.body(), parsed.streamOptions());
		return chain.filter(exchange.mutate()
			.request(new CachedBodyRequest(request, body, exchange.getResponse().bufferFactory()))
			.build());
	}
}
