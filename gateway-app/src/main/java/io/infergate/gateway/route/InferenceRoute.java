package io.infergate.gateway.route;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.ReactiveLoadBalancerClientFilter;
import org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.GatewayFilterSpec;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.cloud.gateway.route.builder.UriSpec;
import org.springframework.cloud.gateway.support.RouteMetadataUtils;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;

import io.infergate.gateway.capture.TrafficCapture;
import io.infergate.gateway.config.GatewayProperties;
import io.infergate.gateway.connection.UpstreamResponseTimeout;
import io.infergate.gateway.ledger.UsageLedger;
import io.infergate.gateway.observe.AccessLog;
import io.infergate.gateway.observe.AccessLogProperties;
import io.infergate.gateway.observe.InferenceMeters;
import io.infergate.gateway.observe.SpendMeters;
import io.infergate.gateway.observe.InferenceSpanTags;
import io.infergate.routing.auth.ApiKeys;
import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.config.ConfigurationCheck;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.spend.Costs;

/**
 * The inference route: every step of an OpenAI request, in order, in this one file. The {@link InferenceEngine}
 * decides; each step adapts one part of it to HTTP. A request that a step answers (an error, a 429) never reaches
 * the next.
 * <ol>
 * <li>{@link #OBSERVE}: note when the request arrived; when it ends, record its metrics, span attributes and
 * access-log line, its usage in the ledger, and its traffic-capture record when capture is on
 * ({@link ObserveFilter});</li>
 * <li>{@link #AUTHENTICATE}: find the caller's API key (401 without a valid one) before any byte of the body is
 * read ({@link AuthenticateFilter});</li>
 * <li>{@link #READ_AND_PARSE}: read the body under the size limit, parse the fields the gateway needs
 * ({@link ReadRequestFilter});</li>
 * <li>{@link #AUTHORIZE_MODEL}: 403 for a model the key may not call (the model the client names: its fallbacks
 * are how the operator serves it) ({@link AuthorizeModelFilter});</li>
 * <li>{@link #SERVED_BY}: say on the response what served it, once it commits, unless
 * {@code infergate.gateway.served-by-headers=false} ({@link ServedByFilter});</li>
 * <li>{@link #MODEL_FALLBACK}: run every per-model step below for the requested model, and again for each fallback
 * while the model cannot serve before the first byte ({@link ModelFallbackFilter});</li>
 * <li>{@link #RESOLVE_MODEL}: resolve {@code model} to a pool (split, lane) and rewrite it for the pool's servers
 * ({@link ResolveModelFilter});</li>
 * <li>{@link #LIMITS}: check and reserve the caller's limits for the model being tried (429 when one is reached,
 * never a fallback), and settle them with the real usage when the response ends; it passes straight on unless keys
 * are required or some limit is configured, which a configuration reload may change ({@link LimitsFilter});</li>
 * <li>{@link #ANSWER_TOKENIZER}: answer {@code /tokenize} and {@code /detokenize} with the model's tokenizer when
 * the pool's engine has no such endpoints ({@link TokenizerEndpointsFilter});</li>
 * <li>{@link #FLOW_CONTROL}: wait while the model's pool is saturated, by priority and fair share of tenants (429 or
 * 503 when the wait is refused or expires, never a fallback), and hold the pool's capacity until the response
 * ends ({@link FlowControlFilter});</li>
 * <li>{@link #ENGINE_PRIORITY}: write the request's priority into the body in the pool's engine's convention, or
 * take the client's out when the pool's engine is told none ({@link EnginePriorityFilter});</li>
 * <li>{@link #ACCOUNT_USAGE}: read the tokens the response reports (asking a stream for its usage chunk, which the
 * client then does not see, when the client did not ask for it) ({@link UsageAccountingFilter});</li>
 * <li>{@link #DISPATCH}: open the request's dispatch, decorate the response, release the in-flight count when the
 * response ends ({@link DispatchFilter});</li>
 * <li>{@link #UPSTREAM_RETRY}: per attempt, decide on each failure before the first byte whether to retry another
 * endpoint or hand the request to the next fallback model ({@link UpstreamRetryFilter});</li>
 * <li>{@link #RECORD_CIRCUIT_OUTCOME}: per attempt, record in the endpoint's circuit whether it answered or failed;
 * only while circuits are on ({@link CircuitOutcomeFilter});</li>
 * <li>{@link #POOL_ROUTE}: per attempt, point the request at its pool, {@code lb://<pool>}, where the load balancer
 * asks the engine to pick the endpoint ({@link PoolRouteFilter}).</li>
 * </ol>
 * The orders place the steps among Spring Cloud Gateway's own global filters: every step up to {@link #DISPATCH}
 * runs outside the response writer (below {@link NettyWriteResponseFilter}'s order), so the chain it wraps completes
 * only once the response body has been written; the per-attempt steps run between setting the route's URL and the
 * load balancer.
 * <p>
 * The route takes a request only when its raw path is exactly an API's path ({@link InferenceApi}): a path pattern
 * would also match {@code /v1/chat/completions;a=b} and {@code /v1/chat/%63ompletions}, which the steps do not
 * know. Such paths are 404s like any other unknown URL. The route's own URI is never used: the pool route step sets
 * each request's.
 * <p>
 * An application adds a step of its own as an {@link InferenceStep} bean named in {@code infergate.gateway.steps};
 * a name there that no such bean has is a startup problem, listed with every other and the names that exist.
 */
@Configuration(proxyBeanMethods = false)
public class InferenceRoute {

	public static final String ID = "openai-inference";

	/** The application's own steps ({@link InferenceStep} beans) the route runs, by bean name. */
	public static final String STEPS_PROPERTY = "infergate.gateway.steps";

	/** The last step outside the response writer. */
	public static final int DISPATCH = NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 10;

	public static final int ACCOUNT_USAGE = DISPATCH - 5;

	public static final int LIMITS = DISPATCH - 10;

	/** After the limits, which count the call, and before flow control: no engine does the work. */
	public static final int ANSWER_TOKENIZER = LIMITS + 1;

	/** After the limits, so a request that waits has already been counted against them. */
	public static final int FLOW_CONTROL = LIMITS + 2;

	/** After flow control, which fixes the request's engine level when it dispatches it. */
	public static final int ENGINE_PRIORITY = FLOW_CONTROL + 1;

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

	/** Where Spring Cloud Gateway sets a route's URL (the pool route step sets it here, once per attempt). */
	public static final int UPSTREAM_RETRY = RouteToRequestUrlFilter.ROUTE_TO_URL_FILTER_ORDER + 10;

	/** Inside the retry step, so it sees every attempt. */
	public static final int RECORD_CIRCUIT_OUTCOME = UPSTREAM_RETRY + 5;

	/** Inside the retry step and before the load balancer, which reads {@code lb://<pool>}. */
	public static final int POOL_ROUTE = (RouteToRequestUrlFilter.ROUTE_TO_URL_FILTER_ORDER
			+ ReactiveLoadBalancerClientFilter.LOAD_BALANCER_CLIENT_FILTER_ORDER) / 2 + 10;

	@Bean
	@ConditionalOnBooleanProperty(name = GatewayProperties.ENABLED, matchIfMissing = true)
	RouteLocator inferenceRouteLocator(RouteLocatorBuilder routes, HttpClientProperties client,
			ServerProperties server, InferenceEngine engine, ApiKeys keys, EndpointCircuits circuits,
			GatewayProperties gateway, CompletedRequests completed, PoolTimeouts timeouts,
			ObjectProvider<TrafficCapture> capture, ListableBeanFactory beans,
			Environment environment) {
		Map<String, InferenceStep> ownSteps = beans.getBeansOfType(InferenceStep.class);
		List<InferenceStep> named = stepNames(environment).stream()
			.map(ownSteps::get)
			.filter(Objects::nonNull)
			.toList();
		// Spring Cloud Gateway's own response timer is off when the connection times the response
		boolean timedPerConnection = UpstreamResponseTimeout.replacing(client, server) != null;
		return routes.routes().route(ID, (route) -> {
			UriSpec spec = route.method(HttpMethod.POST)
				.and()
				.predicate((exchange) -> InferenceApi.forPath(exchange.getRequest().getPath().value()) != null)
				.filters((steps) -> {
				steps.filter(new ObserveFilter(completed, new InferenceSpanTags(), capture.getIfAvailable()), OBSERVE);
				steps.filter(new AuthenticateFilter(keys), AUTHENTICATE);
				steps.filter(new ReadRequestFilter(gateway.maxBodySize().toBytes()), READ_AND_PARSE);
				steps.filter(new AuthorizeModelFilter(keys), AUTHORIZE_MODEL);
				when(gateway.servedByHeaders(), steps, new ServedByFilter(), SERVED_BY);
				steps.filter(new ModelFallbackFilter(engine), MODEL_FALLBACK);
				steps.filter(new ResolveModelFilter(engine, gateway.inlineTokenizationLimit().toBytes()),
						RESOLVE_MODEL);
				// always on the route: a configuration reload may add limits; without any it passes straight on
				steps.filter(new LimitsFilter(engine), LIMITS);
				steps.filter(new TokenizerEndpointsFilter(engine), ANSWER_TOKENIZER);
				steps.filter(new FlowControlFilter(engine), FLOW_CONTROL);
				steps.filter(new EnginePriorityFilter(engine), ENGINE_PRIORITY);
				steps.filter(new UsageAccountingFilter(), ACCOUNT_USAGE);
				steps.filter(new DispatchFilter(engine, timeouts), DISPATCH);
				steps.filter(new UpstreamRetryFilter(gateway.retries(), timeouts), UPSTREAM_RETRY);
				when(circuits.enabled(), steps, new CircuitOutcomeFilter(circuits), RECORD_CIRCUIT_OUTCOME);
				named.forEach((step) -> steps.filter(step, step.order()));
				return steps.filter(new PoolRouteFilter(), POOL_ROUTE);
			});
			if (timedPerConnection) {
				spec = spec.metadata(RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR, -1);
			}
			return spec.uri("lb://pool-chosen-per-request");
		}).build();
	}

	@Bean
	InferenceMeters inferenceMeters(ObjectProvider<MeterRegistry> registry) {
		return new InferenceMeters(registry.getIfUnique(SimpleMeterRegistry::new));
	}

	/** Where every adapter records an ended request. */
	@Bean
	CompletedRequests completedRequests(InferenceMeters meters, AccessLogProperties accessLog, SpendMeters spend,
			ObjectProvider<UsageLedger> ledger) {
		return new CompletedRequests(meters, accessLog.enabled() ? new AccessLog() : null, spend,
				ledger.getIfAvailable());
	}

	@Bean
	SpendMeters spendMeters(ObjectProvider<MeterRegistry> registry, Costs costs) {
		return new SpendMeters(registry.getIfUnique(SimpleMeterRegistry::new), costs);
	}

	/** Every name in {@code infergate.gateway.steps} must be an {@link InferenceStep} bean's. */
	@Bean
	ConfigurationCheck inferenceStepsCheck(Environment environment, ListableBeanFactory beans) {
		return () -> stepProblems(stepNames(environment), beans.getBeansOfType(InferenceStep.class).keySet());
	}

	/** The names in {@code infergate.gateway.steps}, in its order. */
	static List<String> stepNames(Environment environment) {
		return Binder.get(environment).bind(STEPS_PROPERTY, Bindable.listOf(String.class)).orElse(List.of());
	}

	/** The problem with {@code names} when some step bean of {@code steps} does not have it. */
	public static List<String> stepProblems(List<String> names, Set<String> steps) {
		List<String> unknown = names.stream().filter((name) -> !steps.contains(name)).toList();
		if (unknown.isEmpty()) {
			return List.of();
		}
		String known = steps.isEmpty() ? "none (a step is an InferenceStep bean)"
				: String.join(", ", new TreeSet<>(steps));
		return List.of(STEPS_PROPERTY + ": no step named " + String.join(", ", unknown) + "; steps: " + known);
	}

	private static void when(boolean applies, GatewayFilterSpec steps,
			org.springframework.cloud.gateway.filter.GatewayFilter step, int order) {
		if (applies) {
			steps.filter(step, order);
		}
	}
}
