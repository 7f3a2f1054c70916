package io.infergate.gateway.picker;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.infergate.gateway.config.GatewayProperties;
import io.infergate.gateway.route.CompletedRequests;
import io.infergate.routing.auth.ApiKeys;
import io.infergate.routing.engine.InferenceEngine;

/** The Endpoint Picker, when {@code infergate.endpoint-picker.enabled} is true. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = EndpointPickerProperties.PREFIX, name = "enabled", havingValue = "true")
public class EndpointPickerConfiguration {

	@Bean
	EndpointPicker endpointPicker(InferenceEngine engine, ApiKeys keys, ObjectProvider<InferenceObjectives> objectives,
			CompletedRequests completed, GatewayProperties gateway, EndpointPickerProperties properties) {
		return new EndpointPicker(engine, keys, objectives.getIfAvailable(() -> InferenceObjectives.NONE), completed,
				gateway.maxBodySize().toBytes(), (int) Math.max(1, properties.bodyChunkSize().toBytes()));
	}

	@Bean
	PickerServer pickerServer(EndpointPicker picker, EndpointPickerProperties properties) {
		return new PickerServer(picker, properties);
	}
}
