package io.infergate.routing.request;

/**
 * Every exchange attribute Infergate sets, in one place, in the order the request path sets them. The gateway's
 * filters write them; the load balancer reads them through {@code RequestDataContext}, since it never sees the
 * request body.
 */
public final class InfergateAttributes {

	private static final String PREFIX = "io.infergate.";

	/**
	 * The gateway's record of the response it relays: when the request arrived, when the first body byte went out,
	 * whether the upstream failed mid-stream. Set first, for every request on the inference route.
	 */
	public static final String RELAYED_RESPONSE = PREFIX + "relayedResponse";

	/**
	 * The {@link io.infergate.routing.admission.Caller}: key id, tenant, priority and tenant weight, as
	 * authentication established them (the anonymous caller when authentication is off).
	 */
	public static final String CALLER = PREFIX + "caller";

	/** The {@link io.infergate.routing.openai.InferenceApi} of a request on the inference route. */
	public static final String INFERENCE_API = PREFIX + "inferenceApi";

	/** The request body as the client sent it, read once under the size limit. */
	public static final String REQUEST_BODY = PREFIX + "requestBody";

	/** The {@link io.infergate.routing.openai.ParsedRequest}: the fields of the body the gateway needs. */
	public static final String PARSED_REQUEST = PREFIX + "parsedRequest";

	/**
	 * The models a request may still be served by, in order, and the fallbacks it has taken so far. The resolve step
	 * and everything after it run once per model tried.
	 */
	public static final String MODEL_FALLBACKS = PREFIX + "modelFallbacks";

	/** The resolved model route (pool, target model, adapter) of the request, for the model being tried. */
	public static final String MODEL_ROUTE = PREFIX + "modelRoute";

	/** The {@link InferenceRequest} the scheduler sees. */
	public static final String INFERENCE_REQUEST = PREFIX + "inferenceRequest";

	/**
	 * The request's {@link io.infergate.routing.admission.Admission}: the limits it was admitted under and the
	 * reservation its real usage settles.
	 */
	public static final String ADMISSION = PREFIX + "admission";

	/** The tokens the response reports or the gateway counts, read while the response is relayed. */
	public static final String RESPONSE_USAGE = PREFIX + "responseUsage";

	/**
	 * The request's {@link io.infergate.routing.dispatch.Dispatch}: endpoints tried, the one in flight, and the
	 * last routing outcome.
	 */
	public static final String DISPATCH = PREFIX + "dispatch";

	/**
	 * How long the request waited in the gateway's admission queue before dispatch, in nanoseconds (a
	 * {@code Long}); absent when it did not queue.
	 */
	public static final String QUEUE_WAIT_NANOS = PREFIX + "queueWaitNanos";

	private InfergateAttributes() {
	}
}
