package io.infergate.routing.loadbalancer;

/**
 * Every exchange attribute Infergate sets, in one place. The gateway's filters write them; the load balancer
 * reads them through {@code RequestDataContext}, since it never sees the request body.
 */
public final class InfergateAttributes {

	private static final String PREFIX = "io.infergate.";

	/** The parsed {@link io.infergate.routing.request.InferenceRequest}. */
	public static final String INFERENCE_REQUEST = PREFIX + "inferenceRequest";

	/** The request's {@link Dispatch}: endpoints tried, the one in flight, and the last routing outcome. */
	public static final String DISPATCH = PREFIX + "dispatch";

	/** The resolved model route (pool, target model, adapter) of the request. */
	public static final String MODEL_ROUTE = PREFIX + "modelRoute";

	private InfergateAttributes() {
	}
}
