package io.infergate.gateway.loadbalancer;

import java.net.URI;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.LoadBalancerUriTools;
import org.springframework.cloud.gateway.config.GatewayLoadBalancerProperties;
import org.springframework.cloud.gateway.support.DelegatingServiceInstance;

import static org.assertj.core.api.Assertions.assertThat;

class InferenceLoadBalancerClientFilterTests {

	private final InferenceLoadBalancerClientFilter filter = new InferenceLoadBalancerClientFilter(null,
			new GatewayLoadBalancerProperties());

	private static ServiceInstance endpoint(String host, int port) {
		return new DelegatingServiceInstance(new DefaultServiceInstance(host + ":" + port, "pool", host, port, false),
				"http");
	}

	@Test
	void buildsTheSameUrlsAsSpringCloudGatewayAndBuildsEachOnce() {
		List<URI> requests = List.of(URI.create("http://gateway:8080/v1/chat/completions"),
				URI.create("http://gateway:8080/v1/completions"), URI.create("http://gateway:8080/v1/chat/%63ompletions"),
				URI.create("http://gateway:8080/v1/embeddings?api-version=2"));
		List<ServiceInstance> endpoints = List.of(endpoint("10.0.0.5", 8000), endpoint("10.0.0.6", 8001));

		for (URI request : requests) {
			for (ServiceInstance endpoint : endpoints) {
				URI first = filter.reconstructURI(endpoint, request);
				URI again = filter.reconstructURI(endpoint, URI.create(request.toString()));

				assertThat(first).isEqualTo(LoadBalancerUriTools.reconstructURI(endpoint, request));
				assertThat(again).isEqualTo(first);
				if (request.getRawQuery() == null) {
					assertThat(again).as("cached").isSameAs(first);
				}
			}
		}
	}

	@Test
	void theCacheStartsOverWhenFull() {
		URI request = URI.create("http://gateway:8080/v1/chat/completions");
		URI first = filter.reconstructURI(endpoint("10.0.0.1", 8000), request);
		for (int port = 1; port <= InferenceLoadBalancerClientFilter.MAX_CACHED; port++) {
			filter.reconstructURI(endpoint("10.0.1.1", port), request);
		}

		URI later = filter.reconstructURI(endpoint("10.0.0.1", 8000), request);

		assertThat(later).isEqualTo(first).isNotSameAs(first);
	}
}
