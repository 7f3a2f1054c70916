package io.infergate.routing.engine;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.infergate.routing.InferenceRouter;
import io.infergate.routing.RoutingOutcome;
import io.infergate.routing.limits.LimitDecision;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.RateLimiter;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.FlowTicket;
import io.infergate.routing.model.ConfiguredModel;
import io.infergate.routing.model.ModelCatalog;
import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.model.StickyBy;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.openai.PromptTokens;
import io.infergate.routing.pool.EngineType;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.request.Settlement;
import io.infergate.routing.tokenization.RequestTokenizer;
import io.infergate.routing.tokenization.Tokenizers;
import io.infergate.tokenizers.ModelTokenizer;


/**
 * Every decision about an inference request, behind one facade with no web types. An adapter (the gateway's
 * inference route, the bench harness) hands it a parsed request and its caller, then carries out what it says:
 * <ol>
 * <li>{@link #attemptOrder}: the models a request for a model tries, itself then its fallbacks;</li>
 * <li>{@link #resolve}: the model being tried, resolved to a pool, a target model and an adapter (alias, weighted
 * split kept per caller by {@code sticky-by}, lane by size), and what the later steps are told of the request;</li>
 * <li>{@link #limit}: the caller's limits for that model, checked and reserved; the returned {@link LimitDecision}
 * settles them with the tokens used ({@link LimitDecision#complete});</li>
 * <li>{@link #enqueue}: flow control, which dispatches the request at once, queues it while the pool is saturated,
 * or sheds it; the {@link FlowTicket} holds the pool's capacity until it is {@linkplain FlowTicket#release released};
 * </li>
 * <li>{@link #dispatch} and {@link #pick}: scheduling, once per attempt on an endpoint, never on an endpoint the
 * request already failed on; the {@link Dispatch} counts the request in flight until it
 * {@linkplain Dispatch#finish finishes}.</li>
 * </ol>
 * Each step is a call of its own because the adapter acts between them (writes a limited caller's headers, waits
 * for the queue without holding a thread, retries another endpoint after a failure before the first byte).
 */
public final class InferenceEngine {

	/** Tokens a generation is assumed to produce when it sets no {@code max_tokens}. */
	public static final int DEFAULT_ASSUMED_MAX_TOKENS = 256;

	private static final CompletionStage<LimitDecision> UNLIMITED = CompletableFuture.completedFuture(null);

	private final ModelCatalog models;

	private volatile RateLimiter limiter;

	private volatile boolean limitsActive;

	private final FlowController flowControl;

	private final InferenceRouter router;

	private final int assumedMaxTokens;

	private final Tokenizers tokenizers;

	/**
	 * @param limiter the caller's limits, or {@code null} when no limit applies to anyone
	 * @param assumedMaxTokens tokens a generation is assumed to produce when it sets no {@code max_tokens}
	 */
	public InferenceEngine(ModelCatalog models, RateLimiter limiter, FlowController flowControl,
			InferenceRouter router, int assumedMaxTokens) {
		this(models, limiter, flowControl, router, assumedMaxTokens, Tokenizers.NONE);
	}

	/**
	 * @param limiter the caller's limits, or {@code null} when no limit applies to anyone
	 * @param assumedMaxTokens tokens a generation is assumed to produce when it sets no {@code max_tokens}
	 * @param tokenizers the models' and pools' tokenizers, which make their requests' token counts exact
	 */
	public InferenceEngine(ModelCatalog models, RateLimiter limiter, FlowController flowControl,
			InferenceRouter router, int assumedMaxTokens, Tokenizers tokenizers) {
		this.tokenizers = tokenizers;
		this.models = models;
		this.limiter = limiter;
		this.limitsActive = limiter != null;
		this.flowControl = flowControl;
		this.router = router;
		this.assumedMaxTokens = assumedMaxTokens;
	}

	public ModelCatalog models() {
		return models;
	}

	public FlowController flowControl() {
		return flowControl;
	}

	public Tokenizers tokenizers() {
		return tokenizers;
	}

	/** The models a request for {@code model} tries, in order: itself, then its fallbacks. */
	public List<String> attemptOrder(String model) {
		return models.attemptOrder(model);
	}

	/**
	 * Resolves {@code model} (the client's, or a fallback being tried) for a request.
	 * <p>
	 * What the later steps are told depends on the API's work: a generation counts its prompt and its
	 * {@code max_tokens} (or the assumed default) and carries its prompt for prefix affinity; an encoding
	 * (embeddings, rerank, score) counts its input and carries no prompt; a tokenizer call counts nothing. Lanes
	 * compare the same total. The prompt's tokens are counted by the model's tokenizer when it (or its pool) has one
	 * ({@link Tokenizers}), once per request whatever the fallbacks, and the request then carries its token ids;
	 * else they are estimated. A lane is chosen on the exact count: an estimate picks the tokenizer, the exact count
	 * the lane.
	 *
	 * @param sessionKey the client's session ({@code x-session-id}, else the body's {@code user}), or {@code null}
	 */
	public Resolution resolve(String model, ParsedRequest parsed, InferenceApi.Work work, Caller caller,
			String sessionKey) {
		return resolve(model, parsed, work, caller, sessionKey, true);
	}

	/**
	 * {@link #resolve(String, ParsedRequest, InferenceApi.Work, Caller, String) Resolves} {@code model}, or, when
	 * {@code costlyTokenizing} is false and the model's tokenizer would have costly work to do for this request (text
	 * it has not encoded recently), answers {@link Resolution.NeedsTokenizing} without doing it. A chat whose text the
	 * tokenizer has encoded recently (its cache of stretches), but for a short new turn, is resolved in full: that
	 * costs lookups and the turn's encoding.
	 */
	public Resolution resolve(String model, ParsedRequest parsed, InferenceApi.Work work, Caller caller,
			String sessionKey, boolean costlyTokenizing) {
		int promptTokens = (work == InferenceApi.Work.TOKENIZER) ? 0 : parsed.inputTokens();
		int maxTokens = (work != InferenceApi.Work.GENERATION) ? 0
				: (parsed.maxTokens() != null) ? parsed.maxTokens() : assumedMaxTokens;
		long tokens = (long) promptTokens + maxTokens;
		ModelRoute route;
		String stickyKey = null;
		ConfiguredModel configured = models.configured(model);
		if (configured != null) {
			stickyKey = stickyKey(configured.stickyBy(), parsed, caller, sessionKey);
			route = configured.route(stickyKey, tokens);
		}
		else {
			route = models.served(model);
			if (route == null) {
				return new Resolution.UnknownModel(model, models.suggestionsFor(model));
			}
		}
		Tokenizers.Assigned assigned = (work == InferenceApi.Work.TOKENIZER) ? null
				: tokenizers.assignedForRoute(model, (route != null) ? route.pool() : null);
		PromptTokens exact = null;
		if (assigned != null) {
			RequestTokenizer tokenizer = assigned.tokenizer();
			if (!costlyTokenizing && tokenizer.costly() && !tokenizer.tokenizeCheaply(parsed)) {
				return new Resolution.NeedsTokenizing();
			}
			try {
				exact = tokenizer.tokenize(parsed);
			}
			catch (InvalidRequestException ex) {
				return new Resolution.Untokenizable(ex);
			}
		}
		if (exact != null) {
			promptTokens = exact.count();
			tokens = (long) promptTokens + maxTokens;
			if (configured != null && configured.hasLanes()) {
				route = configured.route(stickyKey, tokens);
			}
		}
		if (route == null) {
			return new Resolution.NoLaneFits(model, tokens, configured.largestRequestTokens(), exact != null);
		}
		String promptText = (work == InferenceApi.Work.GENERATION) ? parsed.promptText() : "";
		int[] ids = (exact != null && work == InferenceApi.Work.GENERATION)
				? routingIds(exact.ids(), assigned.routingTokens()) : null;
		return new Resolution.Routed(route, new InferenceRequest(route.model(), route.pool(), route.targetModel(),
				route.adapter(), promptText, promptTokens, maxTokens, parsed.stream(), sessionKey, caller.priority(),
				new Settlement(), ids, exact != null, parsed.cacheSalt()));
	}

	/** The leading {@code routingTokens} of a prompt's ids: all routing uses, and all a request keeps in flight. */
	private static int[] routingIds(int[] ids, int routingTokens) {
		return (ids == null || ids.length <= routingTokens) ? ids : Arrays.copyOf(ids, routingTokens);
	}

	/** The engine {@code pool}'s servers run, or {@code null} for a pool the gateway does not know. */
	public EngineType engineOf(String pool) {
		return router.engineOf(pool);
	}

	/**
	 * The model's own tokenizer for {@code route}, the model's or else its pool's, with which the gateway can answer
	 * {@code /tokenize} and {@code /detokenize} itself; {@code null} when there is none.
	 */
	public ModelTokenizer modelTokenizer(ModelRoute route) {
		RequestTokenizer tokenizer = tokenizers.forRoute(route.model(), route.pool());
		return (tokenizer != null) ? tokenizer.modelTokenizer() : null;
	}

	/** Counts a fallback taken from {@code model}, for {@code /actuator/inference}. */
	public void fallbackTaken(String model) {
		ConfiguredModel configured = models.configured(model);
		if (configured != null) {
			configured.countFallbackTaken();
		}
	}

	/**
	 * After a configuration reload: {@code limiter} when keys are required or any limit is configured, else
	 * {@code null}. A request already past its limits keeps the decision it got.
	 */
	public void limiter(RateLimiter limiter) {
		this.limiter = limiter;
		this.limitsActive = limiter != null;
	}

	public boolean limitsActive() {
		return limitsActive;
	}

	/**
	 * Checks and reserves {@code caller}'s limits for the request's model (its prompt tokens, exact or estimated, plus
	 * its {@code max_tokens}) and holds in its hard budgets the most those tokens can cost. Completes with {@code null}
	 * when no limit or budget applies to anyone.
	 */
	public CompletionStage<LimitDecision> limit(Caller caller, InferenceRequest request) {
		RateLimiter current = limiter;
		return (current != null) ? current.admit(caller, request.requestedModel(), request.estimatedPromptTokens(),
				request.maxTokens()) : UNLIMITED;
	}

	/**
	 * Hands the request to flow control for its pool.
	 *
	 * @param bodyBytes the request body's size, which the pool's queue bounds in bytes
	 * @param ttl how long the client lets it wait, or {@code null} for the configured default
	 */
	public FlowTicket enqueue(InferenceRequest request, Caller caller, long bodyBytes, Duration ttl) {
		return flowControl.enqueue(request.pool(), caller, request.estimatedTotalTokens(),
				request.estimatedPromptTokens(), bodyBytes, ttl);
	}

	/**
	 * The {@code priority} to forward in the body of a request flow control dispatched, in its pool's engine's
	 * convention, or {@code null} when the pool's engine is told none ({@code engine-priority: none}).
	 */
	public Integer enginePriority(FlowTicket ticket) {
		return flowControl.enginePriority(ticket);
	}

	/** Opens the request's dispatch for the model being tried: the endpoints it tries, the one it is in flight on. */
	public Dispatch dispatch(InferenceRequest request) {
		return new Dispatch(request);
	}

	/**
	 * Schedules one attempt of {@code dispatch}: runs the pool's scheduling profile over its ready endpoints, never
	 * one the request already tried, records the decision, and counts the request in flight on the endpoint
	 * chosen.
	 *
	 * @return the endpoint chosen, or {@code null} when none can serve (the outcome, in the dispatch, says why)
	 */
	public Endpoint pick(Dispatch dispatch) {
		return pick(dispatch, null);
	}

	/**
	 * As {@link #pick(Dispatch)}, among only the endpoints {@code eligible} accepts ({@code null}: all): the
	 * Endpoint Picker's subset hint, the endpoints its proxy may send the request to.
	 */
	public Endpoint pick(Dispatch dispatch, Predicate<EndpointId> eligible) {
		RoutingOutcome outcome = router.route(dispatch.request(), dispatch.tried(), eligible);
		dispatch.recordOutcome(outcome);
		if (!outcome.hasEndpoint()) {
			return null;
		}
		Endpoint chosen = outcome.chosen();
		dispatch.dispatchTo(chosen);
		return chosen;
	}

	static String stickyKey(StickyBy stickyBy, ParsedRequest parsed, Caller caller, String sessionKey) {
		return switch (stickyBy) {
			case USER -> parsed.user();
			case SESSION -> sessionKey;
			case API_KEY -> caller.keyId();
			case NONE -> null;
		};
	}
}
