package io.infergate.gateway.route;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.capture.CapturedRequest;
import io.infergate.gateway.capture.TrafficCapture;
import io.infergate.routing.model.ModelRoute;
import io.infergate.gateway.observe.AccessLog;
import io.infergate.gateway.observe.CompletedRequest;
import io.infergate.gateway.observe.InferenceMeters;
import io.infergate.gateway.observe.InferenceSpanTags;
import io.infergate.gateway.observe.RelayedResponse;
import io.infergate.gateway.observe.SpendMeters;
import io.infergate.routing.openai.ResponseUsage;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.SchedulingResult;
import io.infergate.gateway.ledger.UsageLedger;
import io.infergate.routing.spend.Costs;
import io.infergate.routing.spend.Price;

/**
 * The first step of the request path and the last to finish: notes when an inference request arrived (a
 * {@link RelayedResponse}, which the response fills as its body goes out), and when the exchange ends records it
 * once: the gateway-side metrics, the attributes of the request's span, the access-log line when that is on, and
 * the request's capture record when traffic capture is on and samples it.
 * <p>
 * It records as the exchange completes, before the server's observation of the request stops, so the span gets
 * the attributes. A request that fails with an exception is recorded when the error response is committed, with
 * its final status; one the client cancels gets status {@value #CLIENT_CLOSED_REQUEST}.
 */
public class ObserveFilter implements GatewayFilter {

	/** The status recorded for a request the client gave up on (nginx's convention). */
	public static final int CLIENT_CLOSED_REQUEST = 499;

	private final CompletedRequests completed;

	private final InferenceSpanTags spanTags;

	private final TrafficCapture capture;

	/** @param accessLog the access log, or {@code null} when it is off */
	public ObserveFilter(InferenceMeters meters, InferenceSpanTags spanTags, AccessLog accessLog) {
		this(meters, spanTags, accessLog, null, null, null);
	}

	/**
	 * @param accessLog the access log, or {@code null} when it is off
	 * @param capture the traffic capture, or {@code null} when it is off
	 * @param spend prices requests and counts their cost, or {@code null}: every request costs 0
	 * @param ledger the usage ledger, or {@code null} when it is off
	 */
	public ObserveFilter(InferenceMeters meters, InferenceSpanTags spanTags, AccessLog accessLog,
			TrafficCapture capture, SpendMeters spend, UsageLedger ledger) {
		this(new CompletedRequests(meters, accessLog, spend, ledger), spanTags, capture);
	}

	/** @param capture the traffic capture, or {@code null} when it is off */
	public ObserveFilter(CompletedRequests completed, InferenceSpanTags spanTags, TrafficCapture capture) {
		this.completed = completed;
		this.spanTags = spanTags;
		this.capture = capture;
	}


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.of(exchange);
		RelayedResponse relayed = new RelayedResponse(System.nanoTime());
		context.relayed(relayed);
		return chain.filter(exchange)
			.doOnSuccess((done) -> finish(exchange, context, status(exchange), !relayed.failedMidStream()))
			.doOnError((ex) -> {
				if (exchange.getResponse().isCommitted()) {
					finish(exchange, context, status(exchange), false);
				}
				else {
					// the error handler writes the response after this filter: record its status then
					exchange.getResponse().beforeCommit(() -> {
						finish(exchange, context, status(exchange), false);
						return Mono.empty();
					});
				}
			})
			.doOnCancel(() -> finish(exchange, context, CLIENT_CLOSED_REQUEST, false));
	}

	private void finish(ServerWebExchange exchange, InferenceContext context, int status, boolean completed) {
		if (!context.relayed().finish()) {
			return;
		}
		CompletedRequest request = completedRequest(exchange, context, this.completed.costs(), status, completed,
				System.nanoTime());
		InferenceRequest inference = context.request();
		Dispatch dispatch = context.dispatch();
		this.completed.record(request, inference,
				(inference != null) ? LimitsFilter.used(exchange, context, inference) : TokenUsage.NONE,
				dispatch != null && dispatch.lastEndpoint() != null);
		spanTags.tag(exchange.getAttributes(), request);
		if (capture != null && capture.sample()) {
			capture.offer(capturedRequest(exchange, context, request));
		}
	}

	static CapturedRequest capturedRequest(ServerWebExchange exchange, InferenceContext context,
			CompletedRequest completed) {
		ParsedRequest parsed = context.parsed();
		InferenceRequest request = context.request();
		Caller caller = context.caller();
		Integer priority = (request != null) ? Integer.valueOf(request.priority())
				: (caller != null) ? Integer.valueOf(caller.priority()) : null;
		int promptTokens = (request != null) ? request.estimatedPromptTokens()
				: (parsed != null) ? parsed.inputTokens() : -1;
		long arrival = System.currentTimeMillis() - completed.durationNanos() / 1_000_000;
		return new CapturedRequest(arrival, exchange.getRequest().getPath().value(), completed.model(),
				completed.pool(), (request != null) ? request.targetModel() : completed.model(),
				(request != null) ? request.adapter() : null, completed.tenant(), completed.apiKeyId(), priority,
				completed.stream(), promptTokens, false, (parsed != null) ? parsed.promptText() : null,
				(parsed != null) ? parsed.maxTokens() : null,
				(completed.usage() != null) ? completed.usage().outputTokens() : -1, completed.status(),
				completed.completed(), completed.ttftNanos(), completed.durationNanos(), completed.endpoint());
	}

	/** @param costs prices the request, or {@code null}: it costs 0 */
	static CompletedRequest completedRequest(ServerWebExchange exchange, InferenceContext context, Costs costs,
			int status, boolean completed, long nowNanos) {
		RelayedResponse relayed = context.relayed();
		ParsedRequest parsed = context.parsed();
		ModelRoute route = context.route();
		Dispatch dispatch = context.dispatch();
		String endpoint = null;
		String profile = null;
		if (dispatch != null) {
			endpoint = (dispatch.lastEndpoint() != null) ? dispatch.lastEndpoint().toString() : null;
			SchedulingResult result = (dispatch.lastOutcome() != null) ? dispatch.lastOutcome().result() : null;
			profile = (result != null) ? result.profile().name() : null;
		}
		long firstByte = relayed.firstByteNanos();
		Caller caller = context.authenticatedCaller();
		ModelFallbacks fallbacks = context.fallbacks();
		return new CompletedRequest(exchange.getRequest().getId(), (caller != null) ? caller.keyId() : null,
				(caller != null) ? caller.tenant() : null,
				(parsed != null) ? parsed.model() : null, (route != null) ? route.pool() : null, endpoint, profile,
				status, parsed != null && parsed.stream(), completed,
				(firstByte != 0) ? firstByte - relayed.receivedNanos() : -1, nowNanos - relayed.receivedNanos(),
				reportedUsage(context), context.queueWaitNanos(), (fallbacks != null) ? fallbacks.taken() : -1,
				cost(exchange, context, costs));
	}

	/** At its model's price, the usage the request's limits settle with; 0 without a price or a parsed request. */
	private static double cost(ServerWebExchange exchange, InferenceContext context, Costs costs) {
		ParsedRequest parsed = context.parsed();
		InferenceRequest request = context.request();
		Price price = (costs != null && parsed != null && request != null) ? costs.price(parsed.model()) : null;
		return (price != null) ? price.cost(LimitsFilter.used(exchange, context, request)) : 0;
	}

	/** The usage the model server reported, read by the account-usage step; not the gateway's own count. */
	private static TokenUsage reportedUsage(InferenceContext context) {
		ResponseUsage usage = context.usage();
		if (usage == null) {
			return null;
		}
		TokenUsage tokens = usage.tokens(0, false);
		return tokens.reported() ? tokens : null;
	}

	private static int status(ServerWebExchange exchange) {
		HttpStatusCode status = exchange.getResponse().getStatusCode();
		return (status != null) ? status.value() : 200;
	}
}
