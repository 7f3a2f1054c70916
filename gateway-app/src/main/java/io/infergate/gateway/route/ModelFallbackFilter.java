package io.infergate.gateway.route;

import java.util.concurrent.Executor;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.engine.InferenceEngine;

/**
 * Serves a request from its model's fallbacks when the model cannot serve it before the first byte. It wraps every
 * per-model step (resolve, limits, flow control, dispatch, the endpoint retries), so on a fallback those steps run again for
 * the fallback model: its own route, its own limits, a fresh dispatch.
 * <p>
 * What counts as "cannot serve" is decided where the upstream's answer is seen, in {@link UpstreamRetryFilter} (and,
 * for a request that fits no lane, in {@link ResolveModelFilter}); they signal it with a
 * {@link ModelUnavailableException}, only while a fallback is left and nothing has been written. A response that
 * any step writes itself, a limit's 429 for instance, is the request's answer and never falls back.
 */
public class ModelFallbackFilter implements GatewayFilter {

	private static final Log logger = LogFactory.getLog(ModelFallbackFilter.class);

	private final InferenceEngine engine;

	public ModelFallbackFilter(InferenceEngine engine) {
		this.engine = engine;
	}


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.find(exchange);
		ModelFallbacks fallbacks = new ModelFallbacks(engine.attemptOrder(context.parsed().model()));
		context.fallbacks(fallbacks);
		if (!fallbacks.hasNext()) {
			return chain.filter(exchange); // nothing to fall back to
		}
		return attempt(exchange, chain, context);
	}

	private Mono<Void> attempt(ServerWebExchange exchange, GatewayFilterChain chain, InferenceContext context) {
		return chain.filter(exchange)
			.onErrorResume(ModelUnavailableException.class, (ex) -> fallBack(exchange, chain, context, ex));
	}

	private Mono<Void> fallBack(ServerWebExchange exchange, GatewayFilterChain chain, InferenceContext context,
			ModelUnavailableException cause) {
		ModelFallbacks fallbacks = context.fallbacks();
		if (!fallbacks.hasNext() || exchange.getResponse().isCommitted()) {
			return Mono.error(new IllegalStateException("fallback signalled without a fallback to take", cause));
		}
		String from = fallbacks.current();
		engine.fallbackTaken(from);
		String to = fallbacks.next();
		logger.info("Model '" + from + "' could not serve the request before any response byte (" + cause.getMessage()
				+ "); falling back to '" + to + "'");
		Executor here = ExchangeEventLoop.current(exchange);
		FailedAttempts.forget(exchange);
		context.clearAttempt(exchange);
		Mono<Void> next = attempt(exchange, chain, context);
		// The failed attempt is not over when its error reaches this handler: Spring Cloud Gateway's response
		// writer disposes the exchange's upstream connection in a doFinally that runs after the handler returns. Were
		// the next attempt's answer to arrive first, on another thread, that clean-up would close the new connection
		// and the client would get the headers without the body. Started as a new task of this thread's event loop,
		// the next attempt begins only once the failed one has finished.
		return (here != null) ? next.subscribeOn(Schedulers.fromExecutor(here)) : next;
	}

}
