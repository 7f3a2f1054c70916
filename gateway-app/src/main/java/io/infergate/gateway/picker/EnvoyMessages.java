package io.infergate.gateway.picker;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.HeadersResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ImmediateResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.StreamedBodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.TrailersResponse;
import io.envoyproxy.envoy.type.v3.HttpStatus;

import org.springframework.http.HttpHeaders;

import io.infergate.gateway.error.OpenAiError;

/**
 * The ext_proc messages the picker sends, and what it reads of those it receives. Header values go in
 * {@code raw_value}, as current Envoy reads them.
 */
final class EnvoyMessages {

	/** Where the picker names the endpoint: a request header and a dynamic-metadata key of the same name. */
	static final String DESTINATION_HEADER = "x-gateway-destination-endpoint";

	/** The dynamic-metadata namespace of the destination. */
	static final String LB_NAMESPACE = "envoy.lb";

	/** The metadata namespace of the proxy's subset hint. */
	static final String SUBSET_HINT_NAMESPACE = "envoy.lb.subset_hint";

	/** The subset hint's key: the endpoints the proxy may send the request to. */
	static final String SUBSET_KEY = "x-gateway-destination-endpoint-subset";

	/** The endpoint the proxy reports it sent the request to, in {@link #LB_NAMESPACE}. */
	static final String SERVED_KEY = "x-gateway-destination-endpoint-served";

	private EnvoyMessages() {
	}

	/** The headers of {@code map}, names lower-cased as Envoy sends them; a repeated name keeps its first value. */
	static Map<String, String> headers(HeaderMap map) {
		Map<String, String> headers = new HashMap<>(map.getHeadersCount() * 2);
		for (HeaderValue header : map.getHeadersList()) {
			String value = header.getRawValue().isEmpty() ? header.getValue()
					: header.getRawValue().toString(StandardCharsets.UTF_8);
			headers.putIfAbsent(header.getKey().toLowerCase(Locale.ROOT), value);
		}
		return headers;
	}

	/** The answer to the request headers once the request is scheduled: where it goes, and its new length. */
	static ProcessingResponse routeTo(String destination, int bodyBytes, Map<String, String> extraHeaders) {
		HeaderMutation.Builder mutation = HeaderMutation.newBuilder()
			.addSetHeaders(overwrite(DESTINATION_HEADER, destination))
			.addSetHeaders(overwrite("content-length", Integer.toString(bodyBytes)));
		extraHeaders.forEach((name, value) -> mutation.addSetHeaders(overwrite(name, value)));
		Struct lb = Struct.newBuilder()
			.putFields(DESTINATION_HEADER, Value.newBuilder().setStringValue(destination).build())
			.build();
		return ProcessingResponse.newBuilder()
			.setRequestHeaders(HeadersResponse.newBuilder()
				.setResponse(CommonResponse.newBuilder().setClearRouteCache(true).setHeaderMutation(mutation)))
			.setDynamicMetadata(
					Struct.newBuilder().putFields(LB_NAMESPACE, Value.newBuilder().setStructValue(lb).build()))
			.build();
	}

	/** One chunk of the request body, streamed back to the proxy. */
	static ProcessingResponse requestBody(ByteString chunk, boolean endOfStream) {
		return ProcessingResponse.newBuilder().setRequestBody(streamed(chunk, endOfStream)).build();
	}

	/** One chunk of the response body, streamed back to the proxy. */
	static ProcessingResponse responseBody(ByteString chunk, boolean endOfStream) {
		return ProcessingResponse.newBuilder().setResponseBody(streamed(chunk, endOfStream)).build();
	}

	private static BodyResponse streamed(ByteString chunk, boolean endOfStream) {
		return BodyResponse.newBuilder()
			.setResponse(CommonResponse.newBuilder()
				.setBodyMutation(BodyMutation.newBuilder()
					.setStreamedResponse(
							StreamedBodyResponse.newBuilder().setBody(chunk).setEndOfStream(endOfStream))))
			.build();
	}

	/**
	 * The response headers, passed on with {@code added} (the caller's limits); the length is removed when the picker
	 * may change the body.
	 */
	static ProcessingResponse responseHeaders(boolean bodyMayChange, HttpHeaders added) {
		CommonResponse.Builder common = CommonResponse.newBuilder();
		if (bodyMayChange || !added.isEmpty()) {
			HeaderMutation.Builder mutation = HeaderMutation.newBuilder();
			if (bodyMayChange) {
				mutation.addRemoveHeaders("content-length");
			}
			setAll(mutation, added);
			common.setHeaderMutation(mutation);
		}
		return ProcessingResponse.newBuilder()
			.setResponseHeaders(HeadersResponse.newBuilder().setResponse(common))
			.build();
	}

	static ProcessingResponse requestTrailers() {
		return ProcessingResponse.newBuilder().setRequestTrailers(TrailersResponse.getDefaultInstance()).build();
	}

	static ProcessingResponse responseTrailers() {
		return ProcessingResponse.newBuilder().setResponseTrailers(TrailersResponse.getDefaultInstance()).build();
	}

	/** An OpenAI-shaped error the proxy answers the client with, and the headers that go with it. */
	static ProcessingResponse immediate(OpenAiError error, HttpHeaders headers) {
		HeaderMutation.Builder mutation = HeaderMutation.newBuilder()
			.addSetHeaders(overwrite("content-type", "application/json"));
		setAll(mutation, headers);
		return ProcessingResponse.newBuilder()
			.setImmediateResponse(ImmediateResponse.newBuilder()
				.setStatus(HttpStatus.newBuilder().setCodeValue(error.status().value()))
				.setHeaders(mutation)
				.setBody(ByteString.copyFromUtf8(error.toJson()))
				.setDetails((error.code() != null) ? error.code() : "infergate"))
			.build();
	}

	private static void setAll(HeaderMutation.Builder mutation, HttpHeaders headers) {
		headers.forEach((name, values) -> {
			if (!values.isEmpty()) {
				mutation.addSetHeaders(overwrite(name.toLowerCase(Locale.ROOT), values.get(0)));
			}
		});
	}

	private static HeaderValueOption overwrite(String name, String value) {
		return HeaderValueOption.newBuilder()
			.setHeader(HeaderValue.newBuilder().setKey(name).setRawValue(ByteString.copyFromUtf8(value)))
			.setAppendAction(HeaderValueOption.HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD)
			.build();
	}

	/**
	 * The endpoints the proxy's subset hint allows ({@code ip:port}, or {@code ip} for any port of it), or
	 * {@code null} when it gives none. Envoy passes the hint as a list of strings; a comma-separated string is taken
	 * too.
	 */
	static List<String> subsetHint(Metadata metadata) {
		Struct hint = metadata.getFilterMetadataMap().get(SUBSET_HINT_NAMESPACE);
		Value subset = (hint != null) ? hint.getFieldsMap().get(SUBSET_KEY) : null;
		if (subset == null) {
			return null;
		}
		if (subset.hasListValue()) {
			return subset.getListValue()
				.getValuesList()
				.stream()
				.filter(Value::hasStringValue)
				.map((value) -> value.getStringValue().strip())
				.filter((value) -> !value.isEmpty())
				.toList();
		}
		if (subset.hasStringValue()) {
			return List.of(subset.getStringValue().split(","))
				.stream()
				.map(String::strip)
				.filter((value) -> !value.isEmpty())
				.toList();
		}
		return List.of();
	}

	/** The endpoint the proxy reports it used, or {@code null}. */
	static String servedEndpoint(Metadata metadata) {
		Struct lb = metadata.getFilterMetadataMap().get(LB_NAMESPACE);
		Value served = (lb != null) ? lb.getFieldsMap().get(SERVED_KEY) : null;
		return (served != null && served.hasStringValue()) ? served.getStringValue() : null;
	}
}
