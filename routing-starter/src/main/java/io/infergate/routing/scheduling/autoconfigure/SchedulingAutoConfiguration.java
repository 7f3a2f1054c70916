package io.infergate.routing.scheduling.autoconfigure;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import io.infergate.routing.circuit.CircuitBreakerProperties;
import io.infergate.routing.circuit.EndpointCircuits;
import io.infergate.routing.scheduling.PluginType;
import io.infergate.routing.scheduling.Scheduler;
import io.infergate.routing.scheduling.SchedulingPlugin;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.config.SchedulingProperties;
import io.infergate.routing.scheduling.decision.DecisionRecorder;
import io.infergate.routing.scheduling.decision.DecisionRecorderProperties;
import io.infergate.routing.scheduling.filter.ReadyFilter;
import io.infergate.routing.scheduling.load.InFlightLoad;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.saturation.SaturationDetector;
import io.infergate.routing.scheduling.saturation.SaturationProperties;
import io.infergate.routing.scheduling.scorer.MetricScorer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;

/**
 * The scheduling framework: the built-in plugin types and loads (every {@code @Component} in the filter, scorer,
 * picker and load packages), the {@link SaturationDetector}, the {@link EndpointCircuits} the {@code circuit-breaker}
 * filter reads and the gateway records outcomes in, the {@link SchedulingProfiles} built from
 * {@code infergate.scheduling.*} with every {@link PluginType} and plugin bean in the context (user-declared ones
 * included), the {@link Scheduler} and the {@link DecisionRecorder}.
 * <p>
 * A {@link Clock} bean is defined only when the context has none, so the bench harness can bring a virtual one.
 */
@AutoConfiguration(afterName = {
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration" })
@EnableConfigurationProperties({ SchedulingProperties.class, SaturationProperties.class,
		DecisionRecorderProperties.class, CircuitBreakerProperties.class })
@ComponentScan(basePackageClasses = { ReadyFilter.class, MetricScorer.class, MaxScorePicker.class, InFlightLoad.class })
public class SchedulingAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	public Clock infergateClock() {
		return Clock.systemUTC();
	}

	@Bean
	@ConditionalOnMissingBean
	public EndpointCircuits endpointCircuits(CircuitBreakerProperties properties) {
		return new EndpointCircuits(properties);
	}

	@Bean
	@ConditionalOnMissingBean
	public SaturationDetector saturationDetector(SaturationProperties properties) {
		return new SaturationDetector(properties);
	}

	@Bean
	@ConditionalOnMissingBean
	public SchedulingProfiles schedulingProfiles(SchedulingProperties properties, ObjectProvider<PluginType<?, ?>> types,
			ObjectProvider<SchedulingPlugin> plugins) {
		return new SchedulingProfiles(properties, types.orderedStream().toList(), plugins.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	public Scheduler scheduler() {
		return new Scheduler();
	}

	@Bean
	@ConditionalOnMissingBean
	public DecisionRecorder decisionRecorder(DecisionRecorderProperties properties, Clock clock,
			ObjectProvider<MeterRegistry> registry) {
		return new DecisionRecorder(properties, clock, registry.getIfUnique(CompositeMeterRegistry::new));
	}
}
