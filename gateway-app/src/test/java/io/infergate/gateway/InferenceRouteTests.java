package io.infergate.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.infergate.admin.snapshot.DashboardSnapshot;
import io.infergate.admin.snapshot.SnapshotAssembler;
import io.infergate.gateway.route.AuthenticateFilter;
import io.infergate.gateway.route.AuthorizeModelFilter;
import io.infergate.gateway.route.CircuitOutcomeFilter;
import io.infergate.gateway.route.DispatchFilter;
import io.infergate.gateway.route.EnginePriorityFilter;
import io.infergate.gateway.route.FlowControlFilter;
import io.infergate.gateway.route.InferenceRoute;
import io.infergate.gateway.route.LimitsFilter;
import io.infergate.gateway.route.ModelFallbackFilter;
import io.infergate.gateway.route.ObserveFilter;
import io.infergate.gateway.route.PoolRouteFilter;
import io.infergate.gateway.route.ReadRequestFilter;
import io.infergate.gateway.route.ResolveModelFilter;
import io.infergate.gateway.route.ServedByFilter;
import io.infergate.gateway.route.TokenizerEndpointsFilter;
import io.infergate.gateway.route.UpstreamRetryFilter;
import io.infergate.gateway.route.UsageAccountingFilter;
import io.infergate.gateway.support.Http;
import io.infergate.gateway.support.SimulatedPods;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inference route carries its steps in the order {@link InferenceRoute} lists them, and leaves out a step whose
 * configuration turns it off: here the served-by headers, while circuits are on by default. The limits step stays on
 * the route without any limit configured, since a configuration reload may add limits; it then passes straight on.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "infergate.demo.enabled=false",
				"infergate.gateway.served-by-headers=false" })
class InferenceRouteTests extends SimulatedPods {

	@Autowired
	RouteLocator routes;

	@Autowired
	SnapshotAssembler dashboard;

	@DynamicPropertySource
	static void pools(DynamicPropertyRegistry registry) {
		registry.add("infergate.pools.p.endpoints", () -> sims.start("llama").baseUrl());
	}

	@BeforeEach
	void ready() {
		awaitReady("p");
	}

	@Test
	void theStepsAreTheRoutesFiltersInOrderWithoutTheStepsConfigurationTurnsOff() {
		Route route = routes.getRoutes()
			.filter((candidate) -> candidate.getId().equals(InferenceRoute.ID))
			.blockFirst(Duration.ofSeconds(5));

		assertThat(route).isNotNull();
		List<GatewayFilter> filters = route.getFilters();
		assertThat(filters).allMatch(OrderedGatewayFilter.class::isInstance);
		assertThat(filters.stream().<Class<?>>map((filter) -> ((OrderedGatewayFilter) filter).getDelegate().getClass()))
			.containsExactly(ObserveFilter.class, AuthenticateFilter.class, ReadRequestFilter.class,
					AuthorizeModelFilter.class, ModelFallbackFilter.class, ResolveModelFilter.class, LimitsFilter.class,
					TokenizerEndpointsFilter.class, FlowControlFilter.class, EnginePriorityFilter.class, UsageAccountingFilter.class, DispatchFilter.class,
					UpstreamRetryFilter.class, CircuitOutcomeFilter.class, PoolRouteFilter.class);
		assertThat(filters.stream().mapToInt((filter) -> ((OrderedGatewayFilter) filter).getOrder()))
			.isSorted();
	}

	@Test
	void aResponseSaysNothingOfWhatServedItWhenTheHeadersAreOff() {
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(url("/v1/chat/completions")))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(Http.chat("llama", "hello", false, 4)))
			.build());

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue(ServedByFilter.ENDPOINT_HEADER)).isEmpty();
		assertThat(response.headers().firstValue(ServedByFilter.POOL_HEADER)).isEmpty();
		assertThat(response.headers().firstValue(ServedByFilter.MODEL_HEADER)).isEmpty();
	}

	@Test
	void theDashboardShowsTheModelsTheTenantsTheFlowControlQueuesAndTheCircuitsTheEngineKeeps() {
		DashboardSnapshot snapshot = dashboard.next();

		assertThat(snapshot.models()).extracting((model) -> model.name()).contains("llama");
		assertThat(snapshot.tenants()).isNotNull();
		assertThat(snapshot.flowControl()).isNotNull();
		assertThat(snapshot.pools()).singleElement()
			.satisfies((pool) -> assertThat(pool.endpoints()).allSatisfy(
					(endpoint) -> assertThat(endpoint.circuit()).isNotNull()));
	}

}
