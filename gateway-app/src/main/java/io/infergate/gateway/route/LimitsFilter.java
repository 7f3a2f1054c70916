package io.infergate.gateway.route;

import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.error.OpenAiErrorResponses;
import io.infergate.routing.openai.ResponseUsage;
import io.infergate.routing.limits.LimitDecision;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.spend.BudgetHold;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.request.InferenceRequest;

/**
 * Limits: checks and reserves the caller's limits for the model being tried with the {@link InferenceEngine},
 * which holds all the logic; this filter only translates. A request refused by a limit gets 429 with the OpenAI error,
 * {@code Retry-After}, {@code retry-after-ms} and {@code x-infergate-dropped-reason: rate-limited}; one a spent hard
 * budget refuses gets 429 {@code insufficient_quota} ({@link BudgetRefusal}); while the shared store is down under
 * {@code fail-close}, 503. Every response of a limited caller carries the
 * {@link RateLimitHeaders}.
 * <p>
 * The request reserves its estimated prompt tokens plus its {@code max_tokens} (or
 * {@code infergate.gateway.assumed-max-tokens} when it sets none). When the response ends, fails or is cancelled,
 * the reservation is replaced by the tokens {@link ResponseUsage} read, and the max-parallel lease ends.
 */
public class LimitsFilter implements GatewayFilter {

	private static final Log logger = LogFactory.getLog(LimitsFilter.class);

	private final InferenceEngine engine;

	public LimitsFilter(InferenceEngine engine) {
		this.engine = engine;
	}


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		if (!engine.limitsActive()) {
			return chain.filter(exchange);
		}
		InferenceContext context = InferenceContext.find(exchange);
		Caller caller = context.caller();
		return Mono
			.fromCompletionStage(
					ExchangeEventLoop.completeOnLoop(engine.limit(caller, context.request()), exchange))
			.flatMap((decision) -> {
				if (decision.status() == LimitDecision.Status.ADMITTED) {
					if (decision.reportsLimits()) {
						RateLimitHeaders.write(exchange.getResponse().getHeaders(), decision.reservation());
					}
					return admitted(exchange, chain, context, decision);
				}
				return OpenAiErrorResponses.write(exchange, refusal(decision, exchange.getResponse().getHeaders()));
			});
	}

	/**
	 * The answer to a request its limits did not admit, with the headers that go with it written into
	 * {@code headers} (the HTTP route's and the Endpoint Picker's alike).
	 */
	public static OpenAiError refusal(LimitDecision decision, HttpHeaders headers) {
		if (decision.reportsLimits()) {
			RateLimitHeaders.write(headers, decision.reservation());
		}
		return switch (decision.status()) {
			case RATE_LIMITED -> refused(headers, decision);
			case BUDGET_EXHAUSTED -> budgetExhausted(headers, decision);
			case STORE_UNAVAILABLE -> new OpenAiError(HttpStatus.SERVICE_UNAVAILABLE,
					"The rate-limit store cannot be reached, and the gateway refuses requests it "
							+ "cannot count (on-store-failure: fail-close).",
					"service_unavailable", null, "rate_limit_store_unavailable");
			case ADMITTED -> throw new IllegalStateException("an admitted request is not refused");
		};
	}

	private static Mono<Void> admitted(ServerWebExchange exchange, GatewayFilterChain chain, InferenceContext context,
			LimitDecision decision) {
		context.limitDecision(decision);
		InferenceRequest request = context.request();
		// settled before the outcome travels on: a fallback then starts its own attempt on a cleared exchange
		AtomicBoolean settled = new AtomicBoolean();
		Runnable settle = () -> {
			if (settled.compareAndSet(false, true)) {
				decision.complete(used(exchange, context, request));
			}
		};
		return chain.filter(exchange).doOnTerminate(settle).doOnCancel(settle);
	}

	/**
	 * The usage a request's limits settle with: as reported, else the prompt as estimated (when a model server took
	 * it and answered without error) and the content chunks relayed. Its cost is priced from the same.
	 */
	static TokenUsage used(ServerWebExchange exchange, InferenceContext context, InferenceRequest request) {
		return used(context.usage(), context.dispatch(),
				(exchange.getResponse().getStatusCode() != null) ? exchange.getResponse().getStatusCode().value() : 200,
				request);
	}

	/**
	 * The same for any adapter: {@code usage} as read from the response ({@code null}: nothing read), the request's
	 * dispatch ({@code null}: none opened) and the status its client got.
	 */
	public static TokenUsage used(ResponseUsage usage, Dispatch dispatch, int statusCode, InferenceRequest request) {
		boolean reachedModelServer = dispatch != null && dispatch.lastEndpoint() != null;
		HttpStatus status = HttpStatus.resolve(statusCode);
		boolean failed = status != null && status.isError();
		return (usage != null) ? usage.tokens(request.estimatedPromptTokens(), reachedModelServer && !failed)
				: TokenUsage.NONE;
	}

	private static OpenAiError budgetExhausted(HttpHeaders headers, LimitDecision decision) {
		BudgetHold hold = decision.budgetHold();
		if (logger.isDebugEnabled()) {
			logger.debug("429 for key '" + decision.caller().keyId() + "' (tenant '" + decision.caller().tenant()
					+ "') on " + decision.model() + ": budget of " + hold.exhausted().line().describe() + " spent");
		}
		BudgetRefusal.writeHeaders(headers, hold.exhausted(), hold.at());
		return BudgetRefusal.error(hold.exhausted(), hold.maxCostNanos(), decision.currency());
	}

	private static OpenAiError refused(HttpHeaders headers, LimitDecision decision) {
		var denied = decision.reservation().denied();
		if (logger.isDebugEnabled()) {
			logger.debug("429 for key '" + decision.caller().keyId() + "' (tenant '" + decision.caller().tenant()
					+ "') on " + decision.model() + ": " + denied.kind().configName() + " limit of "
					+ denied.bucket().describe());
		}
		RateLimitHeaders.writeRefusal(headers, denied);
		return RateLimitHeaders.refusal(decision.model(), denied);
	}
}
