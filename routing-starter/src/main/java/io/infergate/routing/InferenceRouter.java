package io.infergate.routing;

import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.infergate.routing.RoutingOutcome.Status;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.pool.EndpointPool;
import io.infergate.routing.pool.EngineType;
import io.infergate.routing.pool.EndpointRegistry;
import io.infergate.routing.pool.FailureMode;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.scheduling.ProfileResolver;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.SchedulingCycle;
import io.infergate.routing.scheduling.SchedulingProfile;
import io.infergate.routing.scheduling.SchedulingResult;
import io.infergate.routing.scheduling.decision.DecisionRecorder;

/**
 * Chooses the endpoint for one request: takes the pool's ready endpoints, runs the pool's scheduling profile over
 * them, and applies the pool's failure mode when scheduling throws or leaves no candidate.
 * <p>
 * It has no gateway or load-balancer types, so the gateway's load balancer and the bench harness drive the same
 * code.
 */
public final class InferenceRouter {

	private static final Log logger = LogFactory.getLog(InferenceRouter.class);

	private final EndpointRegistry registry;

	private final ProfileResolver profiles;

	private final Scheduler scheduler;

	private final DecisionRecorder decisions;

	private final InstantSource clock;

	private final Supplier<RandomGenerator> random;

	public InferenceRouter(EndpointRegistry registry, ProfileResolver profiles, Scheduler scheduler,
			DecisionRecorder decisions, InstantSource clock) {
		this(registry, profiles, scheduler, decisions, clock, ThreadLocalRandom::current);
	}

	/**
	 * @param random the randomness of pickers and of fail-open picks: the bench harness passes one seeded
	 * generator so its runs repeat
	 */
	public InferenceRouter(EndpointRegistry registry, ProfileResolver profiles, Scheduler scheduler,
			DecisionRecorder decisions, InstantSource clock, Supplier<RandomGenerator> random) {
		this.registry = registry;
		this.profiles = profiles;
		this.scheduler = scheduler;
		this.decisions = decisions;
		this.clock = clock;
		this.random = random;
	}

	/**
	 * Routes {@code request} within its pool, never to an endpoint in {@code excluded} (those the request already
	 * failed on).
	 */
	/** The engine {@code pool} runs, or {@code null} for a pool it does not know. */
	public EngineType engineOf(String pool) {
		EndpointPool found = registry.pool(pool);
		return (found != null) ? found.engine() : null;
	}

	public RoutingOutcome route(InferenceRequest request, Collection<EndpointId> excluded) {
		return route(request, excluded, null);
	}

	/**
	 * Routes {@code request} as {@link #route(InferenceRequest, Collection)} does, among only the endpoints
	 * {@code eligible} accepts ({@code null}: all), as when a proxy names the subset it may send to.
	 */
	public RoutingOutcome route(InferenceRequest request, Collection<EndpointId> excluded,
			Predicate<EndpointId> eligible) {
		EndpointPool pool = registry.pool(request.pool());
		if (pool == null) {
			return new RoutingOutcome(Status.UNKNOWN_POOL, null, null, "no pool named '" + request.pool() + "'");
		}
		List<Endpoint> ready = pool.readyEndpoints(excluded);
		if (eligible != null) {
			ready = ready.stream().filter((endpoint) -> eligible.test(endpoint.id())).toList();
		}
		if (ready.isEmpty()) {
			return new RoutingOutcome(Status.NO_READY_ENDPOINT, null, null, "pool '" + pool.name() + "' has no "
					+ ((eligible != null) ? "ready endpoint among those the proxy allowed" : "ready endpoint"));
		}
		SchedulingProfile profile = profiles.resolve(pool.profileName());
		RandomGenerator randomGenerator = random.get();
		SchedulingCycle cycle = new SchedulingCycle(request, clock.millis(), randomGenerator,
				decisions.shouldRecord());
		SchedulingResult result = null;
		String failure;
		long start = System.nanoTime();
		try {
			result = scheduler.schedule(profile, cycle, ready);
			if (result.hasPick()) {
				decisions.record(cycle, result);
				return new RoutingOutcome(Status.PICKED, result.chosen(), result, null);
			}
			failure = "profile '" + profile.name() + "' left no candidate among " + ready.size()
					+ " ready endpoints";
		}
		catch (RuntimeException ex) {
			logger.warn("Scheduling in pool '" + pool.name() + "' failed", ex);
			failure = "scheduling failed: " + ex.getMessage();
		}
		Endpoint failedOpen = (pool.failureMode() == FailureMode.FAIL_OPEN)
				? ready.get(randomGenerator.nextInt(ready.size())) : null;
		if (result == null) {
			decisions.recordError(cycle, profile, System.nanoTime() - start);
		}
		else if (failedOpen != null) {
			decisions.recordFailedOpen(cycle, result, failedOpen);
		}
		else {
			decisions.record(cycle, result);
		}
		return (failedOpen != null) ? new RoutingOutcome(Status.FAILED_OPEN, failedOpen, result, failure)
				: new RoutingOutcome(Status.REJECTED, null, result, failure);
	}
}
