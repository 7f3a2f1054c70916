package io.infergate.gateway.picker;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.google.protobuf.ByteString;
import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpTrailers;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProtocolConfiguration;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;

/**
 * Plays Envoy's part against the picker, over a real gRPC connection: Envoy's ext_proc filter in
 * {@code FULL_DUPLEX_STREAMED} mode for request and response bodies, trailers sent. It sends what Envoy sends (the
 * request headers with the protocol configuration and any metadata, the body in chunks, the response headers and
 * body), collects what the picker answers, and, as Envoy's router would, sends the request to the endpoint the
 * picker chose over HTTP.
 */
final class EnvoyDataPlane implements AutoCloseable {

	static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final ManagedChannel channel;

	private final ExternalProcessorGrpc.ExternalProcessorStub stub;

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	EnvoyDataPlane(int port) {
		channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
		stub = ExternalProcessorGrpc.newStub(channel);
	}

	Stream open() {
		return new Stream();
	}

	@Override
	public void close() {
		channel.shutdownNow();
	}

	/** What the picker answered to a request: an immediate response, or the route and the body it sent back. */
	record RequestAnswer(ProcessingResponse immediate, ProcessingResponse headers, List<ProcessingResponse> bodyChunks,
			boolean trailersAnswered) {

		boolean isImmediate() {
			return immediate != null;
		}

		int immediateStatus() {
			return immediate.getImmediateResponse().getStatus().getCodeValue();
		}

		String immediateBody() {
			return immediate.getImmediateResponse().getBody().toStringUtf8();
		}

		String immediateHeader(String name) {
			return header(immediate.getImmediateResponse().getHeaders().getSetHeadersList(), name);
		}

		String destination() {
			return header(headers.getRequestHeaders().getResponse().getHeaderMutation().getSetHeadersList(),
					"x-gateway-destination-endpoint");
		}

		String setHeader(String name) {
			return header(headers.getRequestHeaders().getResponse().getHeaderMutation().getSetHeadersList(), name);
		}

		String metadataDestination() {
			return headers.getDynamicMetadata()
				.getFieldsOrThrow("envoy.lb")
				.getStructValue()
				.getFieldsOrThrow("x-gateway-destination-endpoint")
				.getStringValue();
		}

		byte[] body() {
			ByteString all = ByteString.EMPTY;
			for (ProcessingResponse chunk : bodyChunks) {
				all = all.concat(chunk.getRequestBody().getResponse().getBodyMutation().getStreamedResponse().getBody());
			}
			return all.toByteArray();
		}

		static String header(List<HeaderValueOption> headers, String name) {
			for (HeaderValueOption option : headers) {
				if (option.getHeader().getKey().equals(name)) {
					return option.getHeader().getRawValue().toStringUtf8();
				}
			}
			return null;
		}
	}

	/** One ext_proc stream: one request and its response. */
	final class Stream {

		final LinkedBlockingQueue<Object> received = new LinkedBlockingQueue<>();

		private final StreamObserver<ProcessingRequest> requests;

		private boolean first = true;

		private static final Object COMPLETED = new Object();

		Stream() {
			requests = stub.process(new StreamObserver<>() {
				@Override
				public void onNext(ProcessingResponse response) {
					received.add(response);
				}

				@Override
				public void onError(Throwable error) {
					received.add(error);
				}

				@Override
				public void onCompleted() {
					received.add(COMPLETED);
				}
			});
		}

		/** Request headers as Envoy sends them: pseudo-headers first, the protocol configuration on the first message. */
		Stream requestHeaders(String path, Map<String, String> extra, Metadata metadata, boolean endOfStream) {
			Map<String, String> all = new LinkedHashMap<>();
			all.put(":method", "POST");
			all.put(":path", path);
			all.put(":authority", "gateway.example");
			all.put(":scheme", "http");
			all.put("content-type", "application/json");
			all.putAll(extra);
			ProcessingRequest.Builder message = ProcessingRequest.newBuilder()
				.setRequestHeaders(HttpHeaders.newBuilder().setHeaders(headerMap(all)).setEndOfStream(endOfStream));
			if (metadata != null) {
				message.setMetadataContext(metadata);
			}
			return send(message);
		}

		Stream requestBody(byte[] chunk, boolean endOfStream) {
			return send(ProcessingRequest.newBuilder()
				.setRequestBody(HttpBody.newBuilder().setBody(ByteString.copyFrom(chunk)).setEndOfStream(endOfStream)));
		}

		Stream requestTrailers() {
			return send(ProcessingRequest.newBuilder()
				.setRequestTrailers(HttpTrailers.newBuilder().setTrailers(headerMap(Map.of("x-trailer", "1")))));
		}

		Stream responseHeaders(int status, Map<String, String> extra, String servedEndpoint, boolean endOfStream) {
			Map<String, String> all = new LinkedHashMap<>();
			all.put(":status", Integer.toString(status));
			all.putAll(extra);
			ProcessingRequest.Builder message = ProcessingRequest.newBuilder()
				.setResponseHeaders(HttpHeaders.newBuilder().setHeaders(headerMap(all)).setEndOfStream(endOfStream));
			if (servedEndpoint != null) {
				message.setMetadataContext(Metadata.newBuilder()
					.putFilterMetadata("envoy.lb", Struct.newBuilder()
						.putFields("x-gateway-destination-endpoint-served",
								Value.newBuilder().setStringValue(servedEndpoint).build())
						.build()));
			}
			return send(message);
		}

		Stream responseBody(byte[] chunk, boolean endOfStream) {
			return send(ProcessingRequest.newBuilder()
				.setResponseBody(HttpBody.newBuilder().setBody(ByteString.copyFrom(chunk)).setEndOfStream(endOfStream)));
		}

		private Stream send(ProcessingRequest.Builder message) {
			if (first) {
				message.setProtocolConfig(ProtocolConfiguration.newBuilder()
					.setRequestBodyMode(ProcessingMode.BodySendMode.FULL_DUPLEX_STREAMED)
					.setResponseBodyMode(ProcessingMode.BodySendMode.FULL_DUPLEX_STREAMED));
				first = false;
			}
			requests.onNext(message.build());
			return this;
		}

		/** Envoy resets the stream (the client went away). */
		void cancel() {
			requests.onError(Status.CANCELLED.withDescription("downstream reset").asRuntimeException());
		}

		/** Envoy is done with the stream. */
		void finish() {
			requests.onCompleted();
		}

		ProcessingResponse next() throws InterruptedException {
			Object next = received.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			if (next == null) {
				throw new AssertionError("the picker sent nothing for " + TIMEOUT);
			}
			if (next instanceof ProcessingResponse response) {
				return response;
			}
			if (next instanceof Throwable error) {
				throw new AssertionError("the picker's stream failed: " + error, error);
			}
			throw new AssertionError("the picker closed the stream");
		}

		/** Whether the picker closed the stream (cleanly) within the timeout. */
		boolean closedByPicker() throws InterruptedException {
			Object next = received.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			return next == COMPLETED;
		}

		/** The picker's answer to the request: an immediate response, or headers, body chunks and trailers. */
		RequestAnswer awaitRequestAnswer(boolean trailersSent) throws InterruptedException {
			ProcessingResponse first = next();
			if (first.hasImmediateResponse()) {
				return new RequestAnswer(first, null, List.of(), false);
			}
			if (!first.hasRequestHeaders()) {
				throw new AssertionError("expected the request headers' answer first, got " + first);
			}
			List<ProcessingResponse> chunks = new ArrayList<>();
			while (true) {
				ProcessingResponse chunk = next();
				if (!chunk.hasRequestBody()) {
					throw new AssertionError("expected a body chunk, got " + chunk);
				}
				chunks.add(chunk);
				if (chunk.getRequestBody().getResponse().getBodyMutation().getStreamedResponse().getEndOfStream()) {
					break;
				}
				if (trailersSent && chunks.stream().mapToInt((c) -> c.getRequestBody().getResponse().getBodyMutation()
					.getStreamedResponse().getBody().size()).sum() >= expectedLength(first)) {
					break;
				}
			}
			boolean trailers = false;
			if (trailersSent) {
				ProcessingResponse trailer = next();
				if (!trailer.hasRequestTrailers()) {
					throw new AssertionError("expected the trailers' answer, got " + trailer);
				}
				trailers = true;
			}
			return new RequestAnswer(null, first, chunks, trailers);
		}

		private static int expectedLength(ProcessingResponse headers) {
			return Integer.parseInt(RequestAnswer.header(
					headers.getRequestHeaders().getResponse().getHeaderMutation().getSetHeadersList(), "content-length"));
		}

		/**
		 * Sends the request the picker routed to the endpoint it chose, as Envoy's router would, and passes the
		 * response back through the picker a read at a time. Returns what the picker sent back of the body.
		 */
		Relayed forward(String path, RequestAnswer answer) throws Exception {
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + answer.destination() + path))
				.timeout(TIMEOUT)
				.header("content-type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofByteArray(answer.body()))
				.build();
			HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
			Map<String, String> headers = new LinkedHashMap<>();
			response.headers().firstValue("content-type").ifPresent((type) -> headers.put("content-type", type));
			responseHeaders(response.statusCode(), headers, answer.destination(), false);
			ProcessingResponse headersAnswer = next();
			if (!headersAnswer.hasResponseHeaders()) {
				throw new AssertionError("expected the response headers' answer, got " + headersAnswer);
			}
			ByteString relayed = ByteString.EMPTY;
			int sent = 0;
			try (InputStream body = response.body()) {
				byte[] buffer = new byte[8192];
				int read;
				while ((read = body.read(buffer)) >= 0) {
					if (read == 0) {
						continue;
					}
					responseBody(java.util.Arrays.copyOf(buffer, read), false);
					sent++;
					relayed = relayed.concat(responseChunk(next()));
				}
			}
			responseBody(new byte[0], true);
			ProcessingResponse last = next();
			relayed = relayed.concat(responseChunk(last));
			boolean ended = last.getResponseBody().getResponse().getBodyMutation().getStreamedResponse().getEndOfStream();
			finish();
			return new Relayed(response.statusCode(), headersAnswer, relayed.toStringUtf8(), sent, ended);
		}

		private static ByteString responseChunk(ProcessingResponse response) {
			if (!response.hasResponseBody()) {
				throw new AssertionError("expected a response body chunk, got " + response);
			}
			return response.getResponseBody().getResponse().getBodyMutation().getStreamedResponse().getBody();
		}
	}

	/** A response as the picker passed it back. */
	record Relayed(int status, ProcessingResponse headersAnswer, String body, int chunks, boolean endOfStream) {
	}

	static HeaderMap headerMap(Map<String, String> headers) {
		HeaderMap.Builder map = HeaderMap.newBuilder();
		headers.forEach((name, value) -> map
			.addHeaders(HeaderValue.newBuilder().setKey(name).setRawValue(ByteString.copyFromUtf8(value))));
		return map.build();
	}

	/** Envoy's subset hint: the endpoints the request may go to. */
	static Metadata subsetHint(String... endpoints) {
		ListValue.Builder list = ListValue.newBuilder();
		for (String endpoint : endpoints) {
			list.addValues(Value.newBuilder().setStringValue(endpoint));
		}
		return Metadata.newBuilder()
			.putFilterMetadata("envoy.lb.subset_hint", Struct.newBuilder()
				.putFields("x-gateway-destination-endpoint-subset", Value.newBuilder().setListValue(list).build())
				.build())
			.build();
	}
}
