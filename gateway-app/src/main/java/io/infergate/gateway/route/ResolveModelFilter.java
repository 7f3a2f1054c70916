package io.infergate.gateway.route;

import java.util.concurrent.Executor;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.error.OpenAiErrorResponses;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.engine.Resolution;
import io.infergate.routing.request.Settlement;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.ParsedRequest;

/**
 * Resolves the model being tried (the client's, or the fallback {@link ModelFallbacks} is on) with the
 * {@link InferenceEngine}: 404 when nothing serves the client's model, suggesting close names; the next fallback,
 * else 400, when the request fits none of the model's lanes; 400 when its input cannot be tokenized for the model.
 * With a tokenizer configured, the prompt's tokens are counted here, once, by the model's tokenizer; a real
 * tokenizer's encoding runs on threads of its own ({@code infergate-tokenizer}, one per core), never on the event
 * loop. A chat whose rendered text the tokenizer has encoded recently (its cache of stretches), all but at most
 * {@link io.infergate.routing.openai.PromptSource#INLINE_ENCODED_CHARS} characters of it, is counted on the event
 * loop: lookups and a short new turn cost less than the hop to those threads and back. Then
 * rewrites {@code model} in the body to what the pool's servers expect: the target model, or the LoRA adapter's
 * name.
 */
public class ResolveModelFilter implements GatewayFilter {

	public static final String SESSION_HEADER = "x-session-id";

	/** Where prompts are tokenized: one thread per core, as tokenizing only computes (the Endpoint Picker's too). */
	public static final Scheduler TOKENIZING = Schedulers.newParallel("infergate-tokenizer",
			Runtime.getRuntime().availableProcessors(), true);

	private final InferenceEngine engine;

	private final long inlineTokenizationLimit;

	public ResolveModelFilter(InferenceEngine engine) {
		this(engine, 0);
	}

	/** @param inlineTokenizationLimit bodies up to this many bytes are tokenized on the event loop */
	public ResolveModelFilter(InferenceEngine engine, long inlineTokenizationLimit) {
		this.engine = engine;
		this.inlineTokenizationLimit = inlineTokenizationLimit;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.find(exchange);
		ParsedRequest parsed = context.parsed();
		ModelFallbacks fallbacks = context.fallbacks();
		String model = (fallbacks != null) ? fallbacks.current() : parsed.model();
		String sessionKey = sessionKey(exchange.getRequest(), parsed);
		if (parsed.source() != null && context.api().work() != InferenceApi.Work.TOKENIZER
				&& context.body().length > inlineTokenizationLimit && engine.tokenizers().anyCostly()) {
			// a chat whose text the tokenizer has encoded recently, but for a short new turn: resolved here, no hop
			Resolution cheap = engine.resolve(model, parsed, context.api().work(), context.caller(), sessionKey,
					false);
			if (!(cheap instanceof Resolution.NeedsTokenizing)) {
				return carryOut(cheap, exchange, chain, context, parsed, fallbacks);
			}
			// a real tokenizer takes 2 to 3 µs a token: milliseconds a prompt, not for the loop serving connections
			Mono<Resolution> resolved = Mono
				.fromCallable(() -> engine.resolve(model, parsed, context.api().work(), context.caller(), sessionKey))
				.subscribeOn(TOKENIZING);
			Executor loop = ExchangeEventLoop.of(exchange);
			if (loop != null) {
				resolved = resolved.publishOn(Schedulers.fromExecutor(loop));
			}
			return resolved.flatMap((resolution) -> carryOut(resolution, exchange, chain, context, parsed, fallbacks));
		}
		return carryOut(engine.resolve(model, parsed, context.api().work(), context.caller(), sessionKey), exchange,
				chain, context, parsed, fallbacks);
	}

	private Mono<Void> carryOut(Resolution resolution, ServerWebExchange exchange, GatewayFilterChain chain,
			InferenceContext context, ParsedRequest parsed, ModelFallbacks fallbacks) {
		if (resolution instanceof Resolution.Routed routed) {
			routed.request().settlement().via(Settlement.VIA_HTTP);
			context.resolved(routed.route(), routed.request());
			byte[] forwarded = ModelRewriter.rewrite(context.body(), parsed, routed.route().upstreamModel());
			ServerHttpRequest cachedRequest = new CachedBodyRequest(exchange.getRequest(), forwarded,
					exchange.getResponse().bufferFactory());
			return chain.filter(exchange.mutate().request(cachedRequest).build());
		}
		if (resolution instanceof Resolution.NoLaneFits noLane) {
			if (fallbacks != null && fallbacks.hasNext()) {
				return Mono.error(new ModelUnavailableException("the request needs " + noLane.reason()));
			}
			return OpenAiErrorResponses.write(exchange,
					OpenAiError.tooManyTokens("The request needs " + noLane.reason() + "."));
		}
		if (resolution instanceof Resolution.Untokenizable untokenizable) {
			return OpenAiErrorResponses.write(exchange, OpenAiError.invalidRequest(untokenizable.problem()));
		}
		Resolution.UnknownModel unknown = (Resolution.UnknownModel) resolution;
		return OpenAiErrorResponses.write(exchange, OpenAiError.unknownModel(unknown.model(), unknown.suggestions()));
	}

	private static String sessionKey(ServerHttpRequest httpRequest, ParsedRequest parsed) {
		String session = httpRequest.getHeaders().getFirst(SESSION_HEADER);
		return (session == null || session.isBlank()) ? parsed.user() : session;
	}
}
