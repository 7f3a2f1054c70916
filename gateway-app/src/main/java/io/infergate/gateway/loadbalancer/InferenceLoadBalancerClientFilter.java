package io.infergate.gateway.loadbalancer;

import java.net.URI;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.LoadBalancerUriTools;
import org.springframework.cloud.gateway.config.GatewayLoadBalancerProperties;
import org.springframework.cloud.gateway.filter.ReactiveLoadBalancerClientFilter;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;

/**
 * Spring Cloud Gateway's load-balancer filter, which calls Infergate's load balancer for every inference request,
 * with the endpoint's URL for a request built once per endpoint and API path instead of per request: building it
 * (Spring's {@code UriComponentsBuilder}, then parsing the result) was 2% of the gateway's CPU samples under load.
 * A request with a query string or fragment, which the cache does not key on, is built as Spring Cloud Gateway
 * builds it. At most {@value #MAX_CACHED} URLs are kept; beyond that the cache starts over (endpoints come and go
 * with discovery).
 */
public class InferenceLoadBalancerClientFilter extends ReactiveLoadBalancerClientFilter {

	static final int MAX_CACHED = 4096;

	private final ConcurrentMap<Target, URI> urls = new ConcurrentHashMap<>();

	public InferenceLoadBalancerClientFilter(LoadBalancerClientFactory clientFactory,
			GatewayLoadBalancerProperties properties) {
		super(clientFactory, properties);
	}

	@Override
	protected URI reconstructURI(ServiceInstance instance, URI original) {
		if (original.getRawQuery() != null || original.getRawFragment() != null) {
			return super.reconstructURI(instance, original);
		}
		Target target = new Target(instance.getScheme(), instance.getHost(), instance.getPort(), original.getRawPath());
		URI url = urls.get(target);
		if (url == null) {
			if (urls.size() >= MAX_CACHED) {
				urls.clear();
			}
			url = LoadBalancerUriTools.reconstructURI(instance, original);
			urls.put(target, url);
		}
		return url;
	}

	private record Target(String scheme, String host, int port, String rawPath) {
	}
}
