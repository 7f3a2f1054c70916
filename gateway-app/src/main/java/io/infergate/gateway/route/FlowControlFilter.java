package io.infergate.gateway.route;

import java.time.Duration;

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
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.flowcontrol.FlowDecision;
import io.infergate.routing.flowcontrol.FlowOutcome;
import io.infergate.routing.flowcontrol.FlowTicket;
import io.infergate.routing.request.InferenceRequest;

/**
 * Flow control on the request path, a thin adapter over the {@link InferenceEngine}'s: the request waits here while
 * its pool is saturated, and goes on when the controller dispatches it. A rejection is final (no fallback model is
 * tried): 429, or 503 for {@code no-endpoints} and {@code shutting-down}, with {@code Retry-After},
 * {@code retry-after-ms} and {@code x-infergate-dropped-reason}.
 * <p>
 * A client that goes away while its request waits takes it out of the queue at once; a dispatched request holds its
 * pool's capacity until its response ends, and then charges its tenant the tokens it used. A client may shorten or
 * lengthen its wait with {@value #QUEUE_TTL_HEADER} (milliseconds, capped by {@code infergate.flow-control.max-ttl}).
 * A request that had to wait carries its wait in its {@link InferenceContext}, for the access log and its span; one
 * dispatched at once carries none.
 */
public class FlowControlFilter implements GatewayFilter {

	private static final Log logger = LogFactory.getLog(FlowControlFilter.class);

	public static final String QUEUE_TTL_HEADER = "x-infergate-queue-ttl-ms";

	private final InferenceEngine engine;

	public FlowControlFilter(InferenceEngine engine) {
		this.engine = engine;
	}


	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.find(exchange);
		InferenceRequest request = context.request();
		Duration ttl;
		try {
			ttl = requestedTtl(exchange.getRequest().getHeaders().getFirst(QUEUE_TTL_HEADER));
		}
		catch (IllegalArgumentException ex) {
			return OpenAiErrorResponses.write(exchange, OpenAiError.badRequest(
					QUEUE_TTL_HEADER + " must be a whole number of milliseconds, 0 or more", null));
		}
		byte[] body = context.body();
		long enqueuedNanos = System.nanoTime();
		FlowTicket ticket = engine.enqueue(request, context.caller(), (body != null) ? body.length : 0, ttl);
		FlowDecision atOnce = ticket.decision().getNow(null);
		if (atOnce != null) {
			// decided without waiting, as nearly every request is while the pool has room
			return proceed(exchange, chain, context, ticket, atOnce);
		}
		return Mono.fromFuture(ticket.decision(), true).doOnCancel(ticket::cancel).flatMap((decision) -> {
			context.queueWaitNanos(System.nanoTime() - enqueuedNanos);
			return proceed(exchange, chain, context, ticket, decision);
		});
	}

	private Mono<Void> proceed(ServerWebExchange exchange, GatewayFilterChain chain, InferenceContext context,
			FlowTicket ticket, FlowDecision decision) {
		InferenceRequest request = context.request();
		if (decision.dispatched()) {
			context.flowTicket(ticket);
			return chain.filter(exchange).doFinally((signal) -> ticket.release(usedTokens(context, request)));
		}
		return rejected(exchange, request, decision);
	}

	/**
	 * The wait a client asked for in {@link #QUEUE_TTL_HEADER}, {@code null} without one.
	 *
	 * @throws IllegalArgumentException when the header is not a whole number of milliseconds, 0 or more
	 */
	public static Duration requestedTtl(String header) {
		if (header == null) {
			return null;
		}
		long millis;
		try {
			millis = Long.parseLong(header.strip());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(ex);
		}
		if (millis < 0) {
			throw new IllegalArgumentException("negative");
		}
		return Duration.ofMillis(millis);
	}

	/** Prompt plus completion tokens the response reported or the gateway counted; -1 when nothing was read. */
	private static long usedTokens(InferenceContext context, InferenceRequest request) {
		ResponseUsage usage = context.usage();
		return (usage != null) ? usage.tokens(request.estimatedPromptTokens(), true).total() : -1;
	}

	private Mono<Void> rejected(ServerWebExchange exchange, InferenceRequest request, FlowDecision decision) {
		if (decision.outcome() == FlowOutcome.CANCELLED) {
			return Mono.empty();
		}
		return OpenAiErrorResponses.write(exchange, rejection(request, decision, exchange.getResponse().getHeaders()));
	}

	/**
	 * The answer to a request flow control did not dispatch (never {@link FlowOutcome#CANCELLED}), with its
	 * {@code Retry-After}, {@code retry-after-ms} and dropped-reason headers written into {@code headers} (the HTTP
	 * route's and the Endpoint Picker's alike).
	 */
	public static OpenAiError rejection(InferenceRequest request, FlowDecision decision, HttpHeaders headers) {
		FlowOutcome outcome = decision.outcome();
		long retryAfterMillis = Math.max(1, decision.retryAfterMillis());
		headers.set(HttpHeaders.RETRY_AFTER, Long.toString((retryAfterMillis + 999) / 1000));
		headers.set(RateLimitHeaders.RETRY_AFTER_MS_HEADER, Long.toString(retryAfterMillis));
		headers.set(RateLimitHeaders.DROPPED_REASON_HEADER, outcome.reason());
		if (logger.isDebugEnabled()) {
			logger.debug(outcome.reason() + " for " + request.requestedModel() + " in pool '" + request.pool()
					+ "' after " + decision.waitedMillis() + " ms");
		}
		return error(outcome, request, decision);
	}

	private static OpenAiError error(FlowOutcome outcome, InferenceRequest request, FlowDecision decision) {
		String pool = "pool '" + request.pool() + "'";
		String again = " Please try again in " + RateLimitHeaders.duration(decision.retryAfterMillis() * 1000) + ".";
		return switch (outcome) {
			case REJECTED_CAPACITY -> overloaded("The " + pool + " is saturated and its queue is full." + again,
					"rejected_capacity");
			case REJECTED_SHEDDABLE -> overloaded("The " + pool + " is saturated, and requests of priority "
					+ request.priority() + " are shed while it is." + again, "rejected_sheddable");
			case TTL_EXPIRED -> overloaded("The request waited " + decision.waitedMillis() + " ms for the " + pool
					+ " to have room, and the wait expired." + again, "ttl_expired");
			case NO_ENDPOINTS -> new OpenAiError(HttpStatus.SERVICE_UNAVAILABLE, "The request waited "
					+ decision.waitedMillis() + " ms and the " + pool + " has no ready endpoint." + again,
					"service_unavailable", null, "no_endpoint_available");
			case SHUTTING_DOWN -> new OpenAiError(HttpStatus.SERVICE_UNAVAILABLE,
					"The gateway is shutting down; another replica can serve the request.", "service_unavailable",
					null, "shutting_down");
			case DISPATCHED, CANCELLED -> throw new IllegalStateException(outcome + " is not a rejection");
		};
	}

	private static OpenAiError overloaded(String message, String code) {
		return new OpenAiError(HttpStatus.TOO_MANY_REQUESTS, message, "requests", null, code);
	}
}
