package io.infergate.gateway.config;

import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.cloud.gateway.route.builder.UriSpec;
import org.springframework.cloud.gateway.support.RouteMetadataUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.infergate.gateway.connection.UpstreamResponseTimeout;
import io.infergate.gateway.model.ModelsHandler;
import io.infergate.routing.openai.InferenceApi;

/**
 * One gateway route for every model and every API the model servers serve ({@link InferenceApi}): the body, not the
 * route, picks the pool. The route's own URI is never used: {@link io.infergate.gateway.filter.PoolRouteFilter} sets
 * each request's.
 * <p>
 * The route takes a request only when its raw path is exactly an API's path, as the request path's filters see it:
 * a path pattern would also match {@code /v1/chat/completions;a=b} and {@code /v1/chat/%63ompletions}, which the
 * filters do not know, so they went unparsed to no pool and were answered 503. Such paths are 404s like any other
 * unknown URL.
 */
@Configuration(proxyBeanMethods = false)
public class GatewayRoutesConfiguration {

	public static final String INFERENCE_ROUTE_ID = "openai-inference";

	@Bean
	RouteLocator inferenceRoutes(RouteLocatorBuilder routes, HttpClientProperties client, ServerProperties server) {
		// Spring Cloud Gateway's own response timer is off when the connection times the response
		boolean timedPerConnection = UpstreamResponseTimeout.replacing(client, server) != null;
		return routes.routes().route(INFERENCE_ROUTE_ID, (route) -> {
			UriSpec spec = route.method(HttpMethod.POST)
				.and()
				.predicate((exchange) -> InferenceApi.forPath(exchange.getRequest().getPath().value()) != null);
			if (timedPerConnection) {
				spec = spec.metadata(RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR, -1);
			}
			return spec.uri("lb://pool-chosen-per-request");
		}).build();
	}

	/** {@code /v1/models}, on the API port only: the management server's context would serve it too. */
	@Bean
	RouterFunction<ServerResponse> modelsRoutes(ModelsHandler models, Environment environment) {
		RequestPredicate apiPort = new ManagementPortRequests(environment).negate();
		return RouterFunctions.route()
			.GET("/v1/models", apiPort, models::list)
			.GET("/v1/models/{model}", apiPort, models::get)
			.build();
	}
}
