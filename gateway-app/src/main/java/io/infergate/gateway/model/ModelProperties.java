package io.infergate.gateway.model;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import io.infergate.routing.admission.Limits;

/**
 * Model names clients may use, {@code infergate.models.<name>}, each mapped to a pool, the model name its servers
 * know, and optionally a LoRA adapter.
 */
@Validated
@ConfigurationProperties("infergate")
public class ModelProperties {

	@Valid
	private Map<String, Model> models = new LinkedHashMap<>();

	public Map<String, Model> getModels() {
		return models;
	}

	public void setModels(Map<String, Model> models) {
		this.models = models;
	}

	public static class Model {

		/** The pool that serves the model. */
		@NotBlank
		private String pool;

		/** The model name the pool's servers know; defaults to the client-facing name. */
		private String targetModel;

		/** A LoRA adapter served by the pool; requests are sent with the adapter as their model. */
		private String adapter;

		/** Limits shared by every caller of the model; 0 or unset = unlimited. */
		private Limits limits;

		public String getPool() {
			return pool;
		}

		public void setPool(String pool) {
			this.pool = pool;
		}

		public String getTargetModel() {
			return targetModel;
		}

		public void setTargetModel(String targetModel) {
			this.targetModel = targetModel;
		}

		public String getAdapter() {
			return adapter;
		}

		public void setAdapter(String adapter) {
			this.adapter = adapter;
		}

		public Limits getLimits() {
			return limits;
		}

		public void setLimits(Limits limits) {
			this.limits = limits;
		}
	}
}
