package io.infergate.gateway.filter;

import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.ReactiveLoadBalancerClientFilter;
import org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter;

/**
 * The order of every filter on the inference request path, in one place. Each step is its own filter; a
 * request that a step rejects never reaches the next.
 * <ol>
 * <li>{@link #OBSERVE}: note when the request arrived; when it ends, record its metrics, span attributes and
 * access-log line;</li>
 * <li>{@link #AUTHENTICATE}: find the caller's API key (401 without a valid one) before any byte of the body is
 * read;</li>
 * <li>{@link #READ_AND_PARSE}: read the body under the size limit, parse the fields the gateway needs;</li>
 * <li>{@link #AUTHORIZE_MODEL}: 403 for a model the key may not call (the model the client names: its fallbacks
 * are how the operator serves it);</li>
 * <li>{@link #SERVED_BY}: say on the response what served it, once it commits;</li>
 * <li>{@link #MODEL_FALLBACK}: run every per-model step below for the requested model, and again for each fallback
 * while the model cannot serve before the first byte;</li>
 * <li>{@link #RESOLVE_MODEL}: resolve {@code model} to a pool (split, lane) and rewrite it for the pool's
 * servers;</li>
 * <li>{@link #ADMIT}: check and reserve the caller's rate limits for the model being tried (429 when one is
 * reached, never a fallback), and settle them with the real usage when the response ends;</li>
 * <li>{@link #FLOW_CONTROL}: wait while the model's pool is saturated, by priority and fair share of tenants (429 or
 * 503 when the wait is refused or expires, never a fallback), and hold the pool's capacity until the response
 * ends;</li>
 * <li>{@link #ACCOUNT_USAGE}: read the tokens the response reports (asking a stream for its usage chunk, which the
 * client then does not see, when the client did not ask for it);</li>
 * <li>{@link #DISPATCH}: open the request's dispatch, decorate the response, release the in-flight count when
 * the response ends;</li>
 * <li>{@link #UPSTREAM_RETRY} and {@link #POOL_ROUTE}: per attempt, point the request at its pool, where the load
 * balancer picks the endpoint; decide on each failure before the first byte whether to retry another endpoint or
 * hand the request to the next fallback model;</li>
 * <li>{@link #RECORD_CIRCUIT_OUTCOME}: per attempt, record in the endpoint's circuit whether it answered or
 * failed.</li>
 * </ol>
 * Every step up to {@link #DISPATCH} runs outside the response writer (below {@link NettyWriteResponseFilter}'s
 * order), so the chain it wraps completes only once the response body has been written.
 */
public final class RequestPathOrder {

	/** The last step outside the response writer. */
	public static final int DISPATCH = NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 10;

	public static final int ACCOUNT_USAGE = DISPATCH - 5;

	public static final int ADMIT = DISPATCH - 10;

	/** After the rate limits, so a request that waits has already been counted against them. */
	public static final int FLOW_CONTROL = ADMIT + 2;

	public static final int RESOLVE_MODEL = DISPATCH - 20;

	public static final int READ_AND_PARSE = RESOLVE_MODEL - 10;

	/** Wraps resolve and every step after it, which a fallback runs again. */
	public static final int MODEL_FALLBACK = RESOLVE_MODEL - 5;

	/** Outside the fallbacks, so the headers describe the last model tried. */
	public static final int SERVED_BY = RESOLVE_MODEL - 7;

	public static final int AUTHORIZE_MODEL = RESOLVE_MODEL - 8;

	public static final int AUTHENTICATE = READ_AND_PARSE - 10;

	/** First, so that it sees the request from its arrival to the last byte of its response. */
	public static final int OBSERVE = AUTHENTICATE - 10;

	/** Where Spring Cloud Gateway sets a route's URL (off here: the pool route step sets it, once per attempt). */
	public static final int UPSTREAM_RETRY = RouteToRequestUrlFilter.ROUTE_TO_URL_FILTER_ORDER + 10;

	/** Inside the retry step, so it sees every attempt. */
	public static final int RECORD_CIRCUIT_OUTCOME = UPSTREAM_RETRY + 5;

	/** Inside the retry step and before the load balancer, which reads {@code lb://<pool>}. */
	public static final int POOL_ROUTE = (RouteToRequestUrlFilter.ROUTE_TO_URL_FILTER_ORDER
			+ ReactiveLoadBalancerClientFilter.LOAD_BALANCER_CLIENT_FILTER_ORDER) / 2 + 10;

	private RequestPathOrder() {
	}
}
