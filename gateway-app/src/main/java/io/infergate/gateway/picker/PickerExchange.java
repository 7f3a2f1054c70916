package io.infergate.gateway.picker;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.BiFunction;
import java.util.function.Predicate;

import com.google.protobuf.ByteString;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.stub.StreamObserver;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.route.AuthenticateFilter;
import io.infergate.gateway.route.FlowControlFilter;
import io.infergate.gateway.route.LimitsFilter;
import io.infergate.gateway.route.ModelRewriter;
import io.infergate.gateway.route.PriorityRewriter;
import io.infergate.gateway.route.RateLimitHeaders;
import io.infergate.gateway.route.ResolveModelFilter;
import io.infergate.gateway.route.StreamOptionsRewriter;
import io.infergate.routing.auth.ApiKeys;
import io.infergate.routing.dispatch.Dispatch;
import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.engine.Resolution;
import io.infergate.routing.flowcontrol.FlowDecision;
import io.infergate.routing.flowcontrol.FlowOutcome;
import io.infergate.routing.flowcontrol.FlowTicket;
import io.infergate.routing.limits.Caller;
import io.infergate.routing.limits.LimitDecision;
import io.infergate.routing.limits.TokenUsage;
import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.ParsedRequest;
import io.infergate.routing.openai.ResponseUsage;
import io.infergate.routing.request.InferenceRequest;
import io.infergate.routing.request.Settlement;

/**
 * One request through the picker: one ext_proc stream, in Envoy's {@code FULL_DUPLEX_STREAMED} body mode. Envoy
 * sends the request headers, then the body in chunks (the last with {@code end_of_stream}, or followed by
 * trailers); the picker buffers it under the size limit, parses it, and takes it through the engine's steps as the
 * HTTP route does (resolve, limits, flow control, schedule). It then answers in order: the headers response
 * (the destination in {@value EnvoyMessages#DESTINATION_HEADER} and in dynamic metadata, the body's new length, the
 * route cache cleared), the body again in chunks of at most {@code body-chunk-size}, the trailers response. Every
 * refusal is an immediate response in the OpenAI shape, after which the stream ends.
 * <p>
 * On the way back it reads the response headers (status) and the body it streams back (first byte, {@code usage};
 * for a stream whose client did not ask for usage it asks the engine for it and takes that chunk out, as the HTTP
 * route does), and settles limits, flow control, the in-flight count and the metrics once: at the response's end,
 * at an immediate response, or when Envoy ends the stream early.
 * <p>
 * gRPC delivers one stream's messages one at a time; the engine's answers (limits, flow control) arrive on other
 * threads, so everything here holds the exchange's lock.
 */
final class PickerExchange implements StreamObserver<ProcessingRequest> {

	private static final Log logger = LogFactory.getLog(PickerExchange.class);

	/** The status recorded for a request whose stream the proxy ended first (nginx's convention). */
	static final int CLIENT_CLOSED_REQUEST = 499;

	private enum Phase {

		REQUEST_HEADERS, REQUEST_BODY, DECIDING, FORWARDED, RESPONSE_BODY, ENDED

	}

	private final EndpointPicker picker;

	private final StreamObserver<ProcessingResponse> out;

	private final long receivedNanos = System.nanoTime();

	private Phase phase = Phase.REQUEST_HEADERS;

	private boolean closed;

	private Map<String, String> headers = Map.of();

	private InferenceApi api;

	private Caller authenticated;

	private Caller caller;

	private List<String> subset;

	private byte[] body = new byte[0];

	private int bodyLength;

	private boolean requestTrailers;

	private ParsedRequest parsed;

	private List<String> models;

	private int modelIndex;

	private ModelRoute route;

	private InferenceRequest request;

	private LimitDecision limit;

	private final HttpHeaders limitHeaders = new HttpHeaders();

	private FlowTicket ticket;

	private boolean ticketDispatched;

	private long queueWaitNanos;

	private Dispatch dispatch;

	private ResponseUsage usage;

	private boolean removeUsageChunk;

	private int status = 200;

	private long firstByteNanos;

	private String servedEndpoint;

	private boolean settled;

	PickerExchange(EndpointPicker picker, StreamObserver<ProcessingResponse> out) {
		this.picker = picker;
		this.out = out;
	}

	@Override
	public synchronized void onNext(ProcessingRequest message) {
		if (phase == Phase.ENDED) {
			return;
		}
		try {
			switch (message.getRequestCase()) {
				case REQUEST_HEADERS -> requestHeaders(message);
				case REQUEST_BODY -> requestBody(message.getRequestBody());
				case REQUEST_TRAILERS -> requestTrailers();
				case RESPONSE_HEADERS -> responseHeaders(message);
				case RESPONSE_BODY -> responseBody(message.getResponseBody());
				case RESPONSE_TRAILERS -> responseTrailers();
				default -> outOfOrder("a message with no request or response part");
			}
		}
		catch (RuntimeException ex) {
			logger.error("The endpoint picker failed on a " + message.getRequestCase() + " message", ex);
			internalError();
		}
	}

	/** Envoy reset the stream: the client went away, or Envoy gave up. */
	@Override
	public synchronized void onError(Throwable cause) {
		if (phase != Phase.ENDED) {
			status = CLIENT_CLOSED_REQUEST;
			settle(false);
		}
		closed = true;
	}

	/** Envoy closed its side: nothing more comes for this request. */
	@Override
	public synchronized void onCompleted() {
		if (phase != Phase.ENDED) {
			if (phase.compareTo(Phase.FORWARDED) < 0) {
				status = CLIENT_CLOSED_REQUEST;
			}
			settle(false);
		}
		close();
	}

	private void requestHeaders(ProcessingRequest message) {
		if (phase != Phase.REQUEST_HEADERS) {
			outOfOrder("request headers after the request's headers");
			return;
		}
		headers = EnvoyMessages.headers(message.getRequestHeaders().getHeaders());
		String path = headers.getOrDefault(":path", "");
		int query = path.indexOf('?');
		api = InferenceApi.forPath((query >= 0) ? path.substring(0, query) : path);
		if (api == null || !"POST".equals(headers.getOrDefault(":method", "POST"))) {
			answer(OpenAiError.noSuchEndpoint("The gateway serves no " + headers.getOrDefault(":method", "request")
					+ " " + OpenAiError.echo(path) + "."), new HttpHeaders());
			return;
		}
		if (!authenticate()) {
			return;
		}
		subset = EnvoyMessages.subsetHint(message.getMetadataContext());
		if (message.getRequestHeaders().getEndOfStream()) {
			answer(OpenAiError.badRequest("The request has no body; it must be a JSON object.", null),
					new HttpHeaders());
			return;
		}
		phase = Phase.REQUEST_BODY;
	}

	/**
	 * The caller, as the HTTP route establishes it, then the Inference Extension's headers: an objective's
	 * priority and, without API keys, the fairness id as the tenant.
	 */
	private boolean authenticate() {
		ApiKeys keys = picker.keys();
		ApiKeys.Authentication authentication = keys.authenticate(headers.get("authorization"),
				headers.get(ApiKeys.API_KEY_HEADER));
		if (authentication.refused()) {
			HttpHeaders answerHeaders = new HttpHeaders();
			answerHeaders.set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
			answer(OpenAiError.invalidApiKey(authentication.failure()), answerHeaders);
			return false;
		}
		Caller found = authentication.caller();
		authenticated = found;
		String fairnessId = headers.get(EndpointPicker.FAIRNESS_ID_HEADER);
		if (!keys.enabled() && fairnessId != null && !fairnessId.isBlank()) {
			found = new Caller(found.keyId(), fairnessId.strip(), found.priority(), found.tenantWeight());
		}
		String objective = headers.get(EndpointPicker.OBJECTIVE_HEADER);
		OptionalInt objectivePriority = (objective != null) ? picker.objectives().priority(objective.strip())
				: OptionalInt.empty();
		if (objectivePriority.isPresent()) {
			int priority = objectivePriority.getAsInt();
			// an API key's priority is the most its requests get; without keys the objective says
			found = keys.enabled() ? found.withPriorityAtMost(priority)
					: new Caller(found.keyId(), found.tenant(), priority, found.tenantWeight());
		}
		String priority = headers.get(AuthenticateFilter.PRIORITY_HEADER);
		if (priority != null) {
			try {
				found = found.withPriorityAtMost(Integer.parseInt(priority.strip()));
			}
			catch (NumberFormatException ex) {
				answer(OpenAiError.badRequest("The " + AuthenticateFilter.PRIORITY_HEADER
						+ " header must be an integer.", AuthenticateFilter.PRIORITY_HEADER), new HttpHeaders());
				return false;
			}
		}
		caller = found;
		return true;
	}

	private void requestBody(HttpBody chunk) {
		if (phase != Phase.REQUEST_BODY) {
			outOfOrder((phase == Phase.REQUEST_HEADERS) ? "request body before the request's headers"
					: "request body after the request's end");
			return;
		}
		ByteString bytes = chunk.getBody();
		long limit = picker.maxBodyBytes();
		if ((long) bodyLength + bytes.size() > limit) {
			answer(OpenAiError.bodyTooLarge(limit), new HttpHeaders());
			return;
		}
		if (bodyLength + bytes.size() > body.length) {
			body = Arrays.copyOf(body, (int) Math.min(limit, Math.max(bodyLength + bytes.size(), 2L * body.length)));
		}
		bytes.copyTo(body, bodyLength);
		bodyLength += bytes.size();
		if (chunk.getEndOfStream()) {
			decide();
		}
	}

	private void requestTrailers() {
		if (phase != Phase.REQUEST_BODY) {
			outOfOrder("request trailers " + ((phase == Phase.REQUEST_HEADERS) ? "before the request's headers"
					: "after the request's end"));
			return;
		}
		requestTrailers = true;
		decide();
	}

	private void decide() {
		phase = Phase.DECIDING;
		if (bodyLength != body.length) {
			body = Arrays.copyOf(body, bodyLength);
		}
		try {
			parsed = picker.parser().parse(body, api);
		}
		catch (InvalidRequestException ex) {
			answer(OpenAiError.invalidRequest(ex), new HttpHeaders());
			return;
		}
		if (parsed.priority() != null) {
			caller = caller.withPriorityAtMost(parsed.priority());
		}
		models = picker.engine().attemptOrder(parsed.model());
		modelIndex = 0;
		resolve();
	}

	/**
	 * Resolves the model being tried. With a model's tokenizer, a body above {@code inline-tokenization-limit}
	 * whose text the tokenizer has not mostly seen is tokenized on the tokenizer's threads, as the HTTP route does,
	 * never on the transport's event loop.
	 */
	private void resolve() {
		InferenceEngine engine = picker.engine();
		String model = models.get(modelIndex);
		if (modelIndex > 0) {
			engine.fallbackTaken(model);
		}
		String sessionKey = sessionKey();
		if (parsed.source() != null && api.work() != InferenceApi.Work.TOKENIZER
				&& body.length > picker.inlineTokenizationLimit() && engine.tokenizers().anyCostly()) {
			Resolution cheap = engine.resolve(model, parsed, api.work(), caller, sessionKey, false);
			if (cheap instanceof Resolution.NeedsTokenizing) {
				ResolveModelFilter.TOKENIZING.schedule(() -> tokenized(model, sessionKey));
				return;
			}
			carryOut(cheap);
			return;
		}
		carryOut(engine.resolve(model, parsed, api.work(), caller, sessionKey));
	}

	private void tokenized(String model, String sessionKey) {
		Resolution resolution;
		try {
			resolution = picker.engine().resolve(model, parsed, api.work(), caller, sessionKey);
		}
		catch (RuntimeException ex) {
			synchronized (this) {
				logger.error("The endpoint picker failed to tokenize a request", ex);
				internalError();
			}
			return;
		}
		synchronized (this) {
			if (phase != Phase.ENDED) {
				carryOut(resolution);
			}
		}
	}

	private void carryOut(Resolution resolution) {
		if (resolution instanceof Resolution.Routed routed) {
			route = routed.route();
			request = routed.request();
			request.settlement().via(Settlement.VIA_EXT_PROC);
			limit();
		}
		else if (resolution instanceof Resolution.NoLaneFits noLane) {
			if (!nextModel()) {
				answer(OpenAiError.tooManyTokens("The request needs " + noLane.reason() + "."), new HttpHeaders());
			}
		}
		else if (resolution instanceof Resolution.Untokenizable untokenizable) {
			answer(OpenAiError.invalidRequest(untokenizable.problem()), new HttpHeaders());
		}
		else if (resolution instanceof Resolution.UnknownModel unknown) {
			answer(OpenAiError.unknownModel(unknown.model(), unknown.suggestions()), new HttpHeaders());
		}
		else {
			throw new IllegalStateException("unexpected resolution " + resolution);
		}
	}

	/** Tries the next fallback model, when there is one, with everything the last one held given back. */
	private boolean nextModel() {
		if (modelIndex + 1 >= models.size()) {
			return false;
		}
		release(TokenUsage.NONE);
		dispatch = null;
		route = null;
		modelIndex++;
		resolve();
		return true;
	}

	private String sessionKey() {
		String session = headers.get(ResolveModelFilter.SESSION_HEADER);
		return (session == null || session.isBlank()) ? parsed.user() : session;
	}

	private void limit() {
		InferenceEngine engine = picker.engine();
		if (!engine.limitsActive()) {
			flowControl();
			return;
		}
		engine.limit(caller, request).whenComplete((decision, failure) -> limited(decision, failure));
	}

	private synchronized void limited(LimitDecision decision, Throwable failure) {
		if (phase == Phase.ENDED) {
			if (decision != null && decision.admitted()) {
				decision.complete(TokenUsage.NONE);
			}
			return;
		}
		if (failure != null) {
			logger.warn("Limits failed for a request to " + request.requestedModel() + ": " + failure.getMessage());
			answer(OpenAiError.unavailable("The gateway could not check the request's limits."), new HttpHeaders());
			return;
		}
		if (decision.status() != LimitDecision.Status.ADMITTED) {
			HttpHeaders answerHeaders = new HttpHeaders();
			OpenAiError refusal = LimitsFilter.refusal(decision, answerHeaders);
			answer(refusal, answerHeaders);
			return;
		}
		limit = decision;
		if (decision.reportsLimits()) {
			RateLimitHeaders.write(limitHeaders, decision.reservation());
		}
		flowControl();
	}

	private void flowControl() {
		Duration ttl;
		try {
			ttl = FlowControlFilter.requestedTtl(headers.get(FlowControlFilter.QUEUE_TTL_HEADER));
		}
		catch (IllegalArgumentException ex) {
			answer(OpenAiError.badRequest(FlowControlFilter.QUEUE_TTL_HEADER
					+ " must be a whole number of milliseconds, 0 or more", null), new HttpHeaders());
			return;
		}
		long enqueuedNanos = System.nanoTime();
		FlowTicket enqueued = picker.engine().enqueue(request, caller, bodyLength, ttl);
		ticket = enqueued;
		enqueued.decision().whenComplete((decision, failure) -> flowDecided(enqueued, decision, enqueuedNanos));
	}

	private synchronized void flowDecided(FlowTicket decided, FlowDecision decision, long enqueuedNanos) {
		if (decided != ticket) {
			// a ticket given back for a fallback, or cancelled with the stream
			if (decision != null && decision.dispatched()) {
				decided.release(-1);
			}
			return;
		}
		if (decision == null || phase == Phase.ENDED) {
			return;
		}
		queueWaitNanos = System.nanoTime() - enqueuedNanos;
		if (!decision.dispatched()) {
			ticket = null;
			if (decision.outcome() == FlowOutcome.NO_ENDPOINTS && nextModel()) {
				return;
			}
			HttpHeaders answerHeaders = new HttpHeaders();
			OpenAiError rejection = FlowControlFilter.rejection(request, decision, answerHeaders);
			answer(rejection, answerHeaders);
			return;
		}
		ticketDispatched = true;
		forward();
	}

	private void forward() {
		InferenceEngine engine = picker.engine();
		dispatch = engine.dispatch(request);
		Endpoint chosen = engine.pick(dispatch, eligible());
		if (chosen == null) {
			if (nextModel()) {
				return;
			}
			answer(new OpenAiError(HttpStatus.SERVICE_UNAVAILABLE,
					"The pool '" + request.pool() + "' has no ready endpoint"
							+ ((subset != null) ? " among those the proxy allowed." : "."),
					"service_unavailable", null, "no_endpoint_available"), new HttpHeaders());
			return;
		}
		byte[] forwarded = ModelRewriter.rewrite(body, parsed, route.upstreamModel());
		Integer enginePriority = engine.enginePriority(ticket);
		if (enginePriority != null) {
			forwarded = PriorityRewriter.set(forwarded, enginePriority);
		}
		else if (parsed.priority() != null) {
			forwarded = PriorityRewriter.remove(forwarded);
		}
		// stream_options is chat's and text completions'; the Responses API always reports usage at the end
		removeUsageChunk = parsed.stream() && !parsed.includeUsage()
				&& (api == InferenceApi.CHAT_COMPLETIONS || api == InferenceApi.COMPLETIONS);
		if (removeUsageChunk) {
			forwarded = StreamOptionsRewriter.includeUsage(forwarded, parsed.streamOptions());
		}
		usage = new ResponseUsage(removeUsageChunk);
		send(EnvoyMessages.routeTo(chosen.id().toString(), forwarded.length, Map.of()));
		sendInChunks(ByteString.copyFrom(forwarded), !requestTrailers, EnvoyMessages::requestBody);
		if (requestTrailers) {
			send(EnvoyMessages.requestTrailers());
		}
		phase = Phase.FORWARDED;
	}

	/** The endpoints the proxy's subset hint allows ({@code ip:port}, or {@code ip} for any of its ports). */
	private Predicate<EndpointId> eligible() {
		if (subset == null) {
			return null;
		}
		return (id) -> subset.contains(id.toString()) || subset.contains(id.host());
	}

	private void responseHeaders(ProcessingRequest message) {
		if (phase != Phase.FORWARDED) {
			outOfOrder("response headers " + ((phase == Phase.RESPONSE_BODY) ? "twice" : "before the request's end"));
			return;
		}
		Map<String, String> response = EnvoyMessages.headers(message.getResponseHeaders().getHeaders());
		try {
			status = Integer.parseInt(response.getOrDefault(":status", "200").strip());
		}
		catch (NumberFormatException ex) {
			status = 502;
		}
		servedEndpoint = EnvoyMessages.servedEndpoint(message.getMetadataContext());
		send(EnvoyMessages.responseHeaders(removeUsageChunk, limitHeaders));
		if (message.getResponseHeaders().getEndOfStream()) {
			settle(true);
			return;
		}
		phase = Phase.RESPONSE_BODY;
	}

	private void responseBody(HttpBody chunk) {
		if (phase != Phase.RESPONSE_BODY) {
			outOfOrder("response body " + ((phase == Phase.FORWARDED) ? "before the response's headers"
					: "before the request's end"));
			return;
		}
		ByteString bytes = chunk.getBody();
		if (firstByteNanos == 0 && !bytes.isEmpty()) {
			firstByteNanos = System.nanoTime();
		}
		ByteString relayed = bytes;
		DataBuffer buffer = DefaultDataBufferFactory.sharedInstance.wrap(bytes.asReadOnlyByteBuffer());
		if (parsed.stream()) {
			DataBuffer events = usage.readEvents(buffer, DefaultDataBufferFactory.sharedInstance);
			if (events != buffer) {
				relayed = ByteString.copyFrom(events.toByteBuffer());
			}
			if (chunk.getEndOfStream()) {
				relayed = relayed.concat(ByteString.copyFrom(usage.unfinishedEvent()));
			}
		}
		else {
			usage.readJson(buffer);
		}
		sendInChunks(relayed, chunk.getEndOfStream(), EnvoyMessages::responseBody);
		if (chunk.getEndOfStream()) {
			settle(true);
		}
	}

	private void responseTrailers() {
		if (phase != Phase.RESPONSE_BODY && phase != Phase.FORWARDED) {
			outOfOrder("response trailers before the request's end");
			return;
		}
		send(EnvoyMessages.responseTrailers());
		settle(true);
	}

	/** The picker itself failed: a 500 for the proxy to answer (logged where it happened), and the end of the stream. */
	private void internalError() {
		answer(new OpenAiError(HttpStatus.INTERNAL_SERVER_ERROR, "The gateway failed to route the request.",
				"server_error", null, "internal_error"), new HttpHeaders());
	}

	/** A message the protocol does not allow here: a 400 for the proxy to answer, and the end of the stream. */
	private void outOfOrder(String what) {
		answer(new OpenAiError(HttpStatus.BAD_REQUEST, "The proxy sent " + what + " (ext_proc messages out of order).",
				"invalid_request_error", null, "ext_proc_protocol_error"), new HttpHeaders());
	}

	/** Answers the request with {@code error} in place of the model server, and ends the exchange. */
	private void answer(OpenAiError error, HttpHeaders answerHeaders) {
		if (phase == Phase.ENDED) {
			return;
		}
		status = error.status().value();
		send(EnvoyMessages.immediate(error, answerHeaders));
		settle(false);
		close();
	}

	/** Gives back what the request holds and records it, once. */
	private void settle(boolean completed) {
		if (settled) {
			return;
		}
		settled = true;
		phase = Phase.ENDED;
		TokenUsage used = used();
		release(used);
		picker.completed(this, completed, used);
	}

	/** Settles the model being tried: its limits with {@code used}, its flow ticket, its in-flight count. */
	private void release(TokenUsage used) {
		if (limit != null) {
			limit.complete(used);
			limit = null;
		}
		if (ticket != null) {
			if (ticketDispatched) {
				ticket.release((usage != null) ? usage.tokens(request.estimatedPromptTokens(), true).total() : -1);
			}
			else {
				ticket.cancel();
			}
			ticket = null;
			ticketDispatched = false;
		}
		if (dispatch != null) {
			dispatch.finish();
		}
	}

	/** As the HTTP route settles: as reported, else the prompt when a model server took it and did not fail. */
	private TokenUsage used() {
		if (request == null) {
			return TokenUsage.NONE;
		}
		return LimitsFilter.used(usage, dispatch, status, request);
	}

	/**
	 * Sends {@code body} in chunks of at most {@code body-chunk-size} (an empty body as one empty chunk), the last
	 * marked {@code endOfStream}.
	 */
	private void sendInChunks(ByteString body, boolean endOfStream,
			BiFunction<ByteString, Boolean, ProcessingResponse> message) {
		int chunkSize = picker.bodyChunkBytes();
		int start = 0;
		do {
			int end = Math.min(body.size(), start + chunkSize);
			send(message.apply(body.substring(start, end), endOfStream && end == body.size()));
			start = end;
		}
		while (start < body.size());
	}

	private void send(ProcessingResponse response) {
		if (closed) {
			return;
		}
		try {
			out.onNext(response);
		}
		catch (RuntimeException ex) {
			// the stream was cancelled under us
			closed = true;
		}
	}

	private void close() {
		if (!closed) {
			closed = true;
			try {
				out.onCompleted();
			}
			catch (RuntimeException ex) {
				// already cancelled
			}
		}
	}

	// what the picker records of the request once it ends

	long receivedNanos() {
		return receivedNanos;
	}

	long firstByteNanos() {
		return firstByteNanos;
	}

	int status() {
		return status;
	}

	Map<String, String> headers() {
		return headers;
	}

	Caller authenticated() {
		return authenticated;
	}

	ParsedRequest parsed() {
		return parsed;
	}

	ModelRoute route() {
		return route;
	}

	InferenceRequest request() {
		return request;
	}

	Dispatch dispatch() {
		return dispatch;
	}

	ResponseUsage usage() {
		return usage;
	}

	long queueWaitNanos() {
		return queueWaitNanos;
	}

	int fallbacksTaken() {
		return (models != null) ? modelIndex : -1;
	}

	String servedEndpoint() {
		return servedEndpoint;
	}
}
