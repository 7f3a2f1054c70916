package io.infergate.routing.loadbalancer;

import java.util.Map;

import reactor.core.publisher.Mono;

import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.DefaultResponse;
import org.springframework.cloud.client.loadbalancer.EmptyResponse;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.client.loadbalancer.RequestDataContext;
import org.springframework.cloud.client.loadbalancer.Response;
import org.springframework.cloud.loadbalancer.core.ReactorServiceInstanceLoadBalancer;

import io.infergate.routing.discovery.PoolInstanceSuppliers;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.request.InfergateAttributes;

/**
 * The Spring Cloud LoadBalancer face of the {@link InferenceEngine}'s scheduling, one per pool. It reads the
 * request's {@link Dispatch} from the exchange attributes and asks the engine to {@linkplain InferenceEngine#pick
 * pick} an endpoint the request has not tried yet, where the engine counts it in flight. A request that did not come through the gateway's body parser has no
 * dispatch and gets no instance.
 */
public class InfergateLoadBalancer implements ReactorServiceInstanceLoadBalancer {

	private final String pool;

	private final InferenceEngine engine;

	public InfergateLoadBalancer(String pool, InferenceEngine engine) {
		this.pool = pool;
		this.engine = engine;
	}

	@Override
	@SuppressWarnings("rawtypes")
	public Mono<Response<ServiceInstance>> choose(Request request) {
		return Mono.fromSupplier(() -> chooseNow(request));
	}

	@SuppressWarnings("rawtypes")
	private Response<ServiceInstance> chooseNow(Request request) {
		if (!(request.getContext() instanceof RequestDataContext context) || context.getClientRequest() == null) {
			return new EmptyResponse();
		}
		Map<String, Object> attributes = context.getClientRequest().getAttributes();
		if (attributes == null || !(attributes.get(InfergateAttributes.DISPATCH) instanceof Dispatch dispatch)) {
			return new EmptyResponse();
		}
		Endpoint chosen = engine.pick(dispatch);
		if (chosen == null) {
			return new EmptyResponse();
		}
		return new DefaultResponse(PoolInstanceSuppliers.toInstance(pool, chosen.id(), chosen.baseUri()));
	}
}
