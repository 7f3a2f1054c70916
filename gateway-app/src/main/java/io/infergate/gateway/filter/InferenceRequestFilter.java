package io.infergate.gateway.filter;

import java.util.Optional;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.config.GatewayProperties;
import io.infergate.gateway.config.GatewayRoutesConfiguration;
import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.error.OpenAiErrorResponses;
import io.infergate.gateway.model.ModelCatalog;
import io.infergate.gateway.model.ModelRoute;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.OpenAiRequestParser;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.loadbalancer.Dispatch;
import io.infergate.routing.loadbalancer.InfergateAttributes;
import io.infergate.routing.request.InferenceRequest;

/**
 * Reads an inference request's body once, under the size limit (413 as soon as the body passes it, however it is
 * sent), and turns it into an {@link InferenceRequest}
 * for the load balancer: it parses the JSON, resolves {@code model} to a pool, rewrites {@code model} to what the
 * pool's servers expect, and opens the request's {@link Dispatch}.
 * <p>
 * It runs outside the response writer ({@link #ORDER} is below {@link NettyWriteResponseFilter}'s), so the chain
 * it wraps completes only when the response body has been written, and the in-flight count it releases in
 * {@code doFinally} covers the whole stream, an error, or a client cancel.
 */
public class InferenceRequestFilter implements GlobalFilter, Ordered {

	public static final int ORDER = NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 10;

	public static final String ENDPOINT_HEADER = "x-infergate-endpoint";

	public static final String POOL_HEADER = "x-infergate-pool";

	public static final String SESSION_HEADER = "x-session-id";

	private final OpenAiRequestParser parser = new OpenAiRequestParser();

	private final ModelCatalog models;

	private final GatewayProperties properties;

	public InferenceRequestFilter(ModelCatalog models, GatewayProperties properties) {
		this.models = models;
		this.properties = properties;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
		InferenceApi api = InferenceApi.forPath(exchange.getRequest().getPath().value());
		if (route == null || !GatewayRoutesConfiguration.INFERENCE_ROUTE_ID.equals(route.getId()) || api == null) {
			return chain.filter(exchange);
		}
		long limit = properties.getMaxBodySize().toBytes();
		if (exchange.getRequest().getHeaders().getContentLength() > limit) {
			return tooLarge(exchange, limit);
		}
		return DataBufferUtils.join(exchange.getRequest().getBody(), (int) Math.min(limit, Integer.MAX_VALUE))
			.map((buffer) -> {
				byte[] bytes = new byte[buffer.readableByteCount()];
				buffer.read(bytes);
				DataBufferUtils.release(buffer);
				return Optional.of(bytes);
			})
			.defaultIfEmpty(Optional.of(new byte[0]))
			.onErrorResume(DataBufferLimitException.class, (ex) -> Mono.just(Optional.empty()))
			.flatMap((body) -> body.isPresent() ? dispatch(exchange, chain, api, body.get()) : tooLarge(exchange, limit));
	}

	/**
	 * Answers 413 as soon as the body passes the limit, without reading the rest: memory stays bounded by the
	 * limit whatever the client sends. The connection is closed after the answer, since the unread rest of the body
	 * makes it unusable; clients that read while they send (as HTTP/1.1 asks them to) see the answer.
	 */
	private Mono<Void> tooLarge(ServerWebExchange exchange, long limit) {
		exchange.getResponse().getHeaders().setConnection("close");
		return OpenAiErrorResponses.write(exchange, OpenAiError.bodyTooLarge(limit));
	}

	private Mono<Void> dispatch(ServerWebExchange exchange, GatewayFilterChain chain, InferenceApi api, byte[] body) {
		ParsedRequest parsed;
		try {
			parsed = parser.parse(body, api);
		}
		catch (InvalidRequestException ex) {
			OpenAiError error = ex.isMalformedJson() ? OpenAiError.invalidJson(ex.getMessage())
					: OpenAiError.badRequest(ex.getMessage(), ex.param());
			return OpenAiErrorResponses.write(exchange, error);
		}
		ModelRoute route = models.resolve(parsed.model());
		if (route == null) {
			return OpenAiErrorResponses.write(exchange, OpenAiError.unknownModel(parsed.model()));
		}
		InferenceRequest request = toInferenceRequest(exchange.getRequest(), parsed, route);
		Dispatch dispatch = new Dispatch(request);
		exchange.getAttributes().put(InfergateAttributes.INFERENCE_REQUEST, request);
		exchange.getAttributes().put(InfergateAttributes.MODEL_ROUTE, route);
		exchange.getAttributes().put(InfergateAttributes.DISPATCH, dispatch);

		byte[] forwarded = ModelRewriter.rewrite(body, parsed, route.upstreamModel());
		ServerHttpRequest cachedRequest = new CachedBodyRequest(exchange.getRequest(), forwarded,
				exchange.getResponse().bufferFactory());
		InferenceResponse response = new InferenceResponse(exchange.getResponse(), dispatch);
		if (properties.isServedByHeaders()) {
			response.beforeCommit(() -> {
				response.getHeaders().set(POOL_HEADER, route.pool());
				if (exchange.getAttribute(ServerWebExchangeUtils.CLIENT_RESPONSE_ATTR) != null
						&& dispatch.lastEndpoint() != null) {
					response.getHeaders().set(ENDPOINT_HEADER, dispatch.lastEndpoint().toString());
				}
				return Mono.empty();
			});
		}
		return chain.filter(exchange.mutate().request(cachedRequest).response(response).build())
			.doFinally((signal) -> dispatch.finish());
	}

	private InferenceRequest toInferenceRequest(ServerHttpRequest httpRequest, ParsedRequest parsed, ModelRoute route) {
		String session = httpRequest.getHeaders().getFirst(SESSION_HEADER);
		if (session == null || session.isBlank()) {
			session = parsed.user();
		}
		int promptTokens = (parsed.promptTokenHint() > 0) ? parsed.promptTokenHint()
				: InferenceRequest.estimateTokens(parsed.promptText().length());
		int maxTokens = (parsed.maxTokens() != null) ? parsed.maxTokens() : properties.getAssumedMaxTokens();
		return new InferenceRequest(parsed.model(), route.pool(), route.targetModel(), route.adapter(),
				parsed.promptText(), promptTokens, maxTokens, parsed.stream(), session, 0);
	}
}
