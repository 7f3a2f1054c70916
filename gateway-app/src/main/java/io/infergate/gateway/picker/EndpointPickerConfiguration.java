package io.infergate.gateway.picker;

import org.springframework.beans.factory.ObjectProvider;
import java.util.List;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.infergate.gateway.config.GatewayProperties;
import io.infergate.gateway.route.CompletedRequests;
import io.infergate.routing.auth.ApiKeys;
import io.infergate.routing.config.ConfigurationCheck;
import io.infergate.routing.engine.InferenceEngine;

/** The Endpoint Picker, when {@code infergate.endpoint-picker.enabled} is true. */
@Configuration(proxyBeanMethods = false)
public class EndpointPickerConfiguration {

	/** With the OpenAI API off and no picker, nothing would serve a request. */
	@Bean
	ConfigurationCheck frontDoorCheck(GatewayProperties gateway, EndpointPickerProperties picker) {
		return () -> (gateway.enabled() || picker.enabled()) ? List.of()
				: List.of(GatewayProperties.ENABLED + " is false and " + EndpointPickerProperties.PREFIX
						+ ".enabled is not true: nothing would serve requests; turn the Endpoint Picker on, or the "
						+ "OpenAI API back on");
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(prefix = EndpointPickerProperties.PREFIX, name = "enabled")
	static class Picker {

		@Bean
		EndpointPicker endpointPicker(InferenceEngine engine, ApiKeys keys, ObjectProvider<InferenceObjectives> objectives,
				CompletedRequests completed, GatewayProperties gateway, EndpointPickerProperties properties) {
			return new EndpointPicker(engine, keys, objectives.getIfAvailable(() -> InferenceObjectives.NONE), completed,
					gateway.maxBodySize().toBytes(), (int) Math.max(1, properties.bodyChunkSize().toBytes()),
					gateway.inlineTokenizationLimit().toBytes());
		}

		@Bean
		PickerServer pickerServer(EndpointPicker picker, EndpointPickerProperties properties) {
			return new PickerServer(picker, properties);
		}
	}
}
