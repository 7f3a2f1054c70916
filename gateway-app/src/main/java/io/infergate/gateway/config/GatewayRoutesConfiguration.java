package io.infergate.gateway.config;

import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.infergate.gateway.model.ModelsHandler;
import io.infergate.routing.openai.InferenceApi;

/**
 * One gateway route for every model and every API the model servers serve ({@link InferenceApi}): the body, not the
 * route, picks the pool. The route's own URI is replaced
 * per request by {@link io.infergate.gateway.filter.PoolRouteFilter}.
 */
@Configuration(proxyBeanMethods = false)
public class GatewayRoutesConfiguration {

	public static final String INFERENCE_ROUTE_ID = "openai-inference";

	@Bean
	RouteLocator inferenceRoutes(RouteLocatorBuilder routes) {
		return routes.routes()
			.route(INFERENCE_ROUTE_ID,
					(route) -> route.method(HttpMethod.POST)
						.and()
						.path(InferenceApi.paths())
						.uri("lb://pool-chosen-per-request"))
			.build();
	}

	@Bean
	RouterFunction<ServerResponse> modelsRoutes(ModelsHandler models) {
		return RouterFunctions.route()
			.GET("/v1/models", models::list)
			.GET("/v1/models/{model}", models::get)
			.build();
	}
}
