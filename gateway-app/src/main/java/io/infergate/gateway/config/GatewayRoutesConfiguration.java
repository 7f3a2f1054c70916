package io.infergate.gateway.config;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.infergate.gateway.model.ModelsHandler;

/** {@code /v1/models}; the inference route is {@link io.infergate.gateway.route.InferenceRoute}. */
@Configuration(proxyBeanMethods = false)
public class GatewayRoutesConfiguration {

	/** {@code /v1/models}, on the API port only: the management server's context would serve it too. */
	@Bean
	@ConditionalOnBooleanProperty(name = GatewayProperties.ENABLED, matchIfMissing = true)
	RouterFunction<ServerResponse> modelsRoutes(ModelsHandler models, Environment environment) {
		RequestPredicate apiPort = new ManagementPortRequests(environment).negate();
		return RouterFunctions.route()
			.GET("/v1/models", apiPort, models::list)
			.GET("/v1/models/{model}", apiPort, models::get)
			.build();
	}
}
