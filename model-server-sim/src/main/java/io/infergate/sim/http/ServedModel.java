package io.infergate.sim.http;

import java.util.List;

import tools.jackson.databind.JsonNode;

/** Which of the server's models a request names: the base model (also when it names none) or a LoRA adapter. */
final class ServedModel {

	private final String baseModel;

	private final List<String> adapters;

	ServedModel(String baseModel, List<String> adapters) {
		this.baseModel = baseModel;
		this.adapters = adapters;
	}

	/** The {@code model} of a request body, the base model when absent. */
	String name(JsonNode root) throws OpenAiError {
		JsonNode model = root.get("model");
		if (model == null || model.isNull()) {
			return this.baseModel;
		}
		if (!model.isString()) {
			throw OpenAiError.badRequest("'model' must be a string.", "model");
		}
		return model.stringValue();
	}

	/** The adapter {@code model} names, {@code null} for the base model; 404 for a model this server lacks. */
	String adapterOf(String model) throws OpenAiError {
		if (model.equals(this.baseModel)) {
			return null;
		}
		if (!this.adapters.contains(model)) {
			throw OpenAiError.modelNotFound(model);
		}
		return model;
	}
}
