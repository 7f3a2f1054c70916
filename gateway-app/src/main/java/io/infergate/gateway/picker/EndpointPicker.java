package io.infergate.gateway.picker;

import java.util.concurrent.atomic.AtomicLong;

import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.stub.StreamObserver;

import io.infergate.gateway.observe.CompletedRequest;
import io.infergate.gateway.route.CompletedRequests;
import io.infergate.routing.auth.ApiKeys;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.openai.OpenAiRequestParser;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.scheduling.SchedulingResult;

/**
 * Envoy's external processing service as an Endpoint Picker: each {@code Process} stream is one request, carried
 * through the engine by a {@link PickerExchange}. The second adapter beside the HTTP route: the same engine, API
 * keys, limits, flow control and records.
 */
public class EndpointPicker extends ExternalProcessorGrpc.ExternalProcessorImplBase {

	/** Names the {@code InferenceObjective} whose priority the request takes. */
	public static final String OBJECTIVE_HEADER = "x-gateway-inference-objective";

	/** The request's fairness id: its tenant for flow control when API keys are off. */
	public static final String FAIRNESS_ID_HEADER = "x-gateway-inference-fairness-id";

	private final OpenAiRequestParser parser = new OpenAiRequestParser();

	private final AtomicLong requestIds = new AtomicLong();

	private final InferenceEngine engine;

	private final ApiKeys keys;

	private final InferenceObjectives objectives;

	private final CompletedRequests completed;

	private final long maxBodyBytes;

	private final int bodyChunkBytes;

	private final long inlineTokenizationLimit;

	/**
	 * @param maxBodyBytes larger request bodies are answered 413, as by the HTTP route
	 * @param bodyChunkBytes the largest body chunk sent back to the proxy
	 * @param inlineTokenizationLimit bodies up to this many bytes are tokenized where their last chunk arrived
	 */
	public EndpointPicker(InferenceEngine engine, ApiKeys keys, InferenceObjectives objectives,
			CompletedRequests completed, long maxBodyBytes, int bodyChunkBytes, long inlineTokenizationLimit) {
		this.engine = engine;
		this.keys = keys;
		this.objectives = objectives;
		this.completed = completed;
		this.maxBodyBytes = Math.min(maxBodyBytes, Integer.MAX_VALUE - 8);
		this.bodyChunkBytes = bodyChunkBytes;
		this.inlineTokenizationLimit = inlineTokenizationLimit;
	}

	@Override
	public StreamObserver<ProcessingRequest> process(StreamObserver<ProcessingResponse> responses) {
		return new PickerExchange(this, responses);
	}

	InferenceEngine engine() {
		return engine;
	}

	ApiKeys keys() {
		return keys;
	}

	InferenceObjectives objectives() {
		return objectives;
	}

	OpenAiRequestParser parser() {
		return parser;
	}

	long maxBodyBytes() {
		return maxBodyBytes;
	}

	int bodyChunkBytes() {
		return bodyChunkBytes;
	}

	long inlineTokenizationLimit() {
		return inlineTokenizationLimit;
	}

	/** Records an ended exchange as the HTTP route records its requests. */
	void completed(PickerExchange exchange, boolean ended, TokenUsage used) {
		long now = System.nanoTime();
		ParsedRequest parsed = exchange.parsed();
		Dispatch dispatch = exchange.dispatch();
		String endpoint = null;
		String profile = null;
		if (dispatch != null) {
			endpoint = (exchange.servedEndpoint() != null) ? exchange.servedEndpoint()
					: (dispatch.lastEndpoint() != null) ? dispatch.lastEndpoint().toString() : null;
			SchedulingResult result = (dispatch.lastOutcome() != null) ? dispatch.lastOutcome().result() : null;
			profile = (result != null) ? result.profile().name() : null;
		}
		Caller caller = exchange.authenticated();
		String requestId = exchange.headers().get("x-request-id");
		if (requestId == null || requestId.isBlank()) {
			requestId = "ext-proc-" + requestIds.incrementAndGet();
		}
		TokenUsage reported = (exchange.usage() != null) ? exchange.usage().tokens(0, false) : null;
		long firstByte = exchange.firstByteNanos();
		String model = (parsed != null) ? parsed.model() : null;
		CompletedRequest request = new CompletedRequest(requestId, (caller != null) ? caller.keyId() : null,
				(caller != null) ? caller.tenant() : null, model,
				(exchange.route() != null) ? exchange.route().pool() : null, endpoint, profile, exchange.status(),
				parsed != null && parsed.stream(), ended, (firstByte != 0) ? firstByte - exchange.receivedNanos() : -1,
				now - exchange.receivedNanos(), (reported != null && reported.reported()) ? reported : null,
				exchange.queueWaitNanos(), exchange.fallbacksTaken(), completed.cost(model, used));
		completed.record(request, exchange.request(), used, dispatch != null && dispatch.lastEndpoint() != null);
	}
}
