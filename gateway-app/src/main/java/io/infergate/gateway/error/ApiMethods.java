package io.infergate.gateway.error;

import org.springframework.http.HttpMethod;

import io.infergate.routing.openai.InferenceApi;

/** The one method each API path answers, for a 405 with {@code Allow} instead of a 404 on the wrong method. */
final class ApiMethods {

	private static final String MODELS = "/v1/models";

	private ApiMethods() {
	}

	/** The method {@code path} is served with, or {@code null} for a path the gateway does not serve. */
	static HttpMethod allowedOn(String path) {
		if (InferenceApi.forPath(path) != null) {
			return HttpMethod.POST;
		}
		if (path.equals(MODELS) || (path.startsWith(MODELS + "/") && path.length() > MODELS.length() + 1)) {
			return HttpMethod.GET;
		}
		return null;
	}
}
