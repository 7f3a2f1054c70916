package io.infergate.routing.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import io.infergate.routing.limits.Limits;

/**
 * Model names clients may use, {@code infergate.models.<name>}. Each routes in one of three forms:
 * <ul>
 * <li>one target: {@code pool}, the model name its servers know ({@code target-model}), optionally a LoRA
 * {@code adapter};</li>
 * <li>weighted {@code targets}, each with its own pool, target model, adapter and {@code weight} (a canary, say),
 * with {@code sticky-by} keeping one caller on one target;</li>
 * <li>{@code lanes}, which pick the pool by the request's estimated tokens, for the model-level
 * {@code target-model} and {@code adapter}.</li>
 * </ul>
 * Any of them can name {@code fallbacks}: other model names tried in order when this one cannot serve a request
 * before its first byte. {@link ConfiguredModels} checks every name at startup.
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

	/** Where requests go: a pool, the model name its servers know, and optionally a LoRA adapter. */
	public static class Target {

		/** The pool that serves the requests. */
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

	/**
	 * One model name. Its own {@code pool} is the single-target form; with {@code lanes} its {@code target-model}
	 * and {@code adapter} apply to every lane.
	 */
	public static class Model extends Target {

		/** A weighted split over several targets, instead of {@code pool}. */
		@Valid
		private List<WeightedTarget> targets = new ArrayList<>();

		/** What keeps one caller on one of the {@code targets}. */
		private StickyBy stickyBy = StickyBy.NONE;

		/** Other model names, tried in order when this one cannot serve a request before its first byte. */
		private List<String> fallbacks = new ArrayList<>();

		/** Pools chosen by the request's estimated tokens, instead of {@code pool}; the first that fits wins. */
		@Valid
		private List<Lane> lanes = new ArrayList<>();

		public List<WeightedTarget> getTargets() {
			return targets;
		}

		public void setTargets(List<WeightedTarget> targets) {
			this.targets = targets;
		}

		public StickyBy getStickyBy() {
			return stickyBy;
		}

		public void setStickyBy(StickyBy stickyBy) {
			this.stickyBy = stickyBy;
		}

		public List<String> getFallbacks() {
			return fallbacks;
		}

		public void setFallbacks(List<String> fallbacks) {
			this.fallbacks = fallbacks;
		}

		public List<Lane> getLanes() {
			return lanes;
		}

		public void setLanes(List<Lane> lanes) {
			this.lanes = lanes;
		}
	}

	/** One target of a weighted split. */
	public static class WeightedTarget extends Target {

		/** This target's share: its weight over the sum of the model's weights. */
		private int weight = 1;

		public int getWeight() {
			return weight;
		}

		public void setWeight(int weight) {
			this.weight = weight;
		}
	}

	/** One lane: requests of at most {@code max-tokens} estimated tokens go to {@code pool}. */
	public static class Lane {

		/** The most estimated prompt tokens plus {@code max_tokens} this lane takes; unset: any. */
		private Integer maxTokens;

		/** The pool that serves this lane. */
		private String pool;

		public Integer getMaxTokens() {
			return maxTokens;
		}

		public void setMaxTokens(Integer maxTokens) {
			this.maxTokens = maxTokens;
		}

		public String getPool() {
			return pool;
		}

		public void setPool(String pool) {
			this.pool = pool;
		}
	}
}
