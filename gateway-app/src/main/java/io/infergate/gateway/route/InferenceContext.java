package io.infergate.gateway.route;

import org.springframework.web.server.ServerWebExchange;

import io.infergate.routing.model.ModelRoute;
import io.infergate.gateway.observe.RelayedResponse;
import io.infergate.routing.openai.ResponseUsage;
import io.infergate.routing.flowcontrol.FlowTicket;
import io.infergate.routing.limits.LimitDecision;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.request.InfergateAttributes;

/**
 * What the request path knows of one inference request, in one exchange attribute
 * ({@link InfergateAttributes#INFERENCE_CONTEXT}): each step writes what it established, and the later steps read
 * it. One attribute rather than one per fact, because an exchange's attributes are a {@code ConcurrentHashMap} sized
 * for 16 that Spring Cloud Gateway already fills: a dozen more made it grow twice per request, and its look-ups and
 * resizes were several percent of the gateway's CPU samples under load.
 * <p>
 * The facts of the request (its API, caller, body, parsed fields, arrival, the models it may be served by) hold for
 * every model tried; those of the attempt (route, scheduler request, limit decision, usage reading, dispatch) belong to the
 * model being tried, and a fallback {@linkplain #clearAttempt clears} them. The {@link Dispatch} is also an attribute
 * of its own, {@link InfergateAttributes#DISPATCH}, for the load balancer, which sees only the attributes.
 * <p>
 * The steps of one exchange run one after another, each starting after the previous one's signal, so the fields need
 * no locking.
 */
public final class InferenceContext {

	private final InferenceApi api;

	private RelayedResponse relayed;

	private Caller caller;

	private byte[] body;

	private ParsedRequest parsed;

	private ModelFallbacks fallbacks;

	private ModelRoute route;

	private InferenceRequest request;

	private LimitDecision limitDecision;

	private ResponseUsage usage;

	private Dispatch dispatch;

	private long queueWaitNanos = -1;

	private FlowTicket flowTicket;


	InferenceContext(InferenceApi api) {
		this.api = api;
	}

	/**
	 * The context of an exchange on the inference route, created by its first step (the route takes only the paths
	 * of an {@link InferenceApi}).
	 */
	static InferenceContext of(ServerWebExchange exchange) {
		InferenceContext context = exchange.getAttribute(InfergateAttributes.INFERENCE_CONTEXT);
		if (context != null) {
			return context;
		}
		context = new InferenceContext(InferenceApi.forPath(exchange.getRequest().getPath().value()));
		exchange.getAttributes().put(InfergateAttributes.INFERENCE_CONTEXT, context);
		return context;
	}

	/** The context an earlier step created, or {@code null}. */
	public static InferenceContext find(ServerWebExchange exchange) {
		return exchange.getAttribute(InfergateAttributes.INFERENCE_CONTEXT);
	}

	/** The context of an inference request whose body has been read and parsed, or {@code null}. */
	public static InferenceContext parsed(ServerWebExchange exchange) {
		InferenceContext context = find(exchange);
		return (context != null && context.parsed != null) ? context : null;
	}

	/** The request's own state is kept; the attempt's is forgotten, as if its steps had not run. */
	void clearAttempt(ServerWebExchange exchange) {
		route = null;
		request = null;
		limitDecision = null;
		usage = null;
		dispatch = null;
		exchange.getAttributes().remove(InfergateAttributes.DISPATCH);
	}

	public InferenceApi api() {
		return api;
	}

	/** What the gateway records of the response as it relays it; set first, by the observe step. */
	public RelayedResponse relayed() {
		return relayed;
	}

	void relayed(RelayedResponse relayed) {
		this.relayed = relayed;
	}

	/** Who sent the request: the anonymous caller until authentication establishes one. */
	public Caller caller() {
		return (caller != null) ? caller : Caller.anonymous();
	}

	/** The caller authentication established, or {@code null} when it has not (yet). */
	public Caller authenticatedCaller() {
		return caller;
	}

	void caller(Caller caller) {
		this.caller = caller;
	}

	/** The body as the client sent it, read once under the size limit; {@code null} until it is. */
	public byte[] body() {
		return body;
	}

	/** The fields of the body the gateway needs; {@code null} until the body is parsed. */
	public ParsedRequest parsed() {
		return parsed;
	}

	void read(byte[] body, ParsedRequest parsed) {
		this.body = body;
		this.parsed = parsed;
	}

	/** The models the request may still be served by, and the fallbacks taken; {@code null} before that step. */
	public ModelFallbacks fallbacks() {
		return fallbacks;
	}

	void fallbacks(ModelFallbacks fallbacks) {
		this.fallbacks = fallbacks;
	}

	/** The route (pool, target model, adapter) of the model being tried, once resolved. */
	public ModelRoute route() {
		return route;
	}

	/** What the scheduler is told of the request for the model being tried, once resolved. */
	public InferenceRequest request() {
		return request;
	}

	void resolved(ModelRoute route, InferenceRequest request) {
		this.route = route;
		this.request = request;
	}

	/** The limits the attempt was admitted under and its reservation, when limits apply. */
	public LimitDecision limitDecision() {
		return limitDecision;
	}

	void limitDecision(LimitDecision decision) {
		this.limitDecision = decision;
	}

	/** The tokens the response reports or the gateway counts, read while the response is relayed. */
	public ResponseUsage usage() {
		return usage;
	}

	void usage(ResponseUsage usage) {
		this.usage = usage;
	}

	/** The attempt's dispatch: endpoints tried, the one in flight, the last routing outcome. */
	public Dispatch dispatch() {
		return dispatch;
	}

	void dispatch(ServerWebExchange exchange, Dispatch dispatch) {
		this.dispatch = dispatch;
		exchange.getAttributes().put(InfergateAttributes.DISPATCH, dispatch);
	}

	/** How long the request waited in flow control's queue, in nanoseconds; -1 when it did not queue. */
	public long queueWaitNanos() {
		return queueWaitNanos;
	}

	void queueWaitNanos(long nanos) {
		this.queueWaitNanos = nanos;
	}

	/** The model being tried's place in flow control, once dispatched. */
	public FlowTicket flowTicket() {
		return flowTicket;
	}

	void flowTicket(FlowTicket ticket) {
		this.flowTicket = ticket;
	}
}
