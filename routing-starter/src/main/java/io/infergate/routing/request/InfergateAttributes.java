package io.infergate.routing.request;

/**
 * Every exchange attribute Infergate sets, in one place. There are two: the gateway keeps what it knows of an
 * inference request in one object, and the load balancer, which never sees the request body and reads only the
 * attributes (through {@code RequestDataContext}), finds the request's dispatch on its own.
 */
public final class InfergateAttributes {

	private static final String PREFIX = "io.infergate.";

	/**
	 * The gateway's state of one inference request ({@code io.infergate.gateway.route.InferenceContext}): its API,
	 * caller, body and parsed fields, the model being tried and its route, limits, flow control, usage reading and dispatch.
	 */
	public static final String INFERENCE_CONTEXT = PREFIX + "inferenceContext";

	/**
	 * The request's {@link io.infergate.routing.dispatch.Dispatch} for the model being tried: endpoints tried, the
	 * one in flight, and the last routing outcome. Read by the load balancer.
	 */
	public static final String DISPATCH = PREFIX + "dispatch";

	private InfergateAttributes() {
	}
}
