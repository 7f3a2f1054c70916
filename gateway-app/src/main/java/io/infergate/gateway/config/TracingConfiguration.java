package io.infergate.gateway.config;

import io.micrometer.tracing.propagation.Propagator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.infergate.gateway.observe.UpstreamTraceContext;

/** The proxied call's trace context: observed for sampled requests, a bare {@code traceparent} for the others. */
@Configuration(proxyBeanMethods = false)
public class TracingConfiguration {

	@Bean
	static BeanPostProcessor proxiedCallsOfSampledRequestsOnly() {
		return UpstreamTraceContext.proxiedCallsOfSampledRequestsOnly();
	}

	@Bean
	HttpHeadersFilter unsampledTraceparentFilter(ObjectProvider<Propagator> propagator) {
		return UpstreamTraceContext.unsampledTraceparent(propagator.getIfAvailable());
	}
}
