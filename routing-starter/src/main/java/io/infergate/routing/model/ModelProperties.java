package io.infergate.routing.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import io.infergate.routing.limits.Limits;
import io.infergate.routing.spend.Price;
import io.infergate.routing.tokenization.TokenizerSettings;

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
 *
 * @param models The model names clients may use, each with its route.
 */
@Validated
@ConfigurationProperties("infergate")
public record ModelProperties(@Valid Map<String, Model> models) {

	public ModelProperties {
		models = (models != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(models)) : Map.of();
	}

	/** {@code list} in its order, unmodifiable; empty when {@code null}. */
	private static <E> List<E> unmodifiable(List<E> list) {
		return (list != null) ? Collections.unmodifiableList(new ArrayList<>(list)) : List.of();
	}

	/** Where requests go: a pool, the model name its servers know, and optionally a LoRA adapter. */
	public interface Target {

		/** The pool that serves the requests. */
		String pool();

		/** The model name the pool's servers know; defaults to the client-facing name. */
		String targetModel();

		/** A LoRA adapter served by the pool; requests are sent with the adapter as their model. */
		String adapter();

		/** Limits shared by every caller of the model; 0 or unset = unlimited. */
		Limits limits();
	}

	/**
	 * One model name. Its own {@code pool} is the single-target form; with {@code lanes} its {@code target-model}
	 * and {@code adapter} apply to every lane.
	 *
	 * @param pool The pool that serves the requests.
	 * @param targetModel The model name the pool's servers know; defaults to the client-facing name.
	 * @param adapter A LoRA adapter served by the pool; requests are sent with the adapter as their model.
	 * @param limits Limits shared by every caller of the model; 0 or unset = unlimited.
	 * @param targets A weighted split over several targets, instead of {@code pool}.
	 * @param stickyBy What keeps one caller on one of the {@code targets}.
	 * @param fallbacks Other model names, tried in order when this one cannot serve a request before its first byte.
	 * @param lanes Pools chosen by the request's estimated tokens, instead of {@code pool}; the first that fits wins.
	 * @param price What the model's tokens cost, per million, for spend; unset: its requests cost 0.
	 * @param tokenizer The model's own tokenizer and chat template, for exact token counts; unset: its pool's, else
	 * the estimate.
	 */
	public record Model(String pool, String targetModel, String adapter, Limits limits,
			@Valid List<WeightedTarget> targets, @DefaultValue("none") StickyBy stickyBy, List<String> fallbacks,
			@Valid List<Lane> lanes, @Valid Price price, TokenizerSettings tokenizer) implements Target {

		/** A model without a tokenizer of its own. */
		public Model(String pool, String targetModel, String adapter, Limits limits, List<WeightedTarget> targets,
				StickyBy stickyBy, List<String> fallbacks, List<Lane> lanes, Price price) {
			this(pool, targetModel, adapter, limits, targets, stickyBy, fallbacks, lanes, price, null);
		}

		@ConstructorBinding
		public Model {
			targets = unmodifiable(targets);
			stickyBy = (stickyBy != null) ? stickyBy : StickyBy.NONE;
			fallbacks = unmodifiable(fallbacks);
			lanes = unmodifiable(lanes);
		}
	}

	/**
	 * One target of a weighted split.
	 *
	 * @param pool The pool that serves the requests.
	 * @param targetModel The model name the pool's servers know; defaults to the client-facing name.
	 * @param adapter A LoRA adapter served by the pool; requests are sent with the adapter as their model.
	 * @param limits Limits shared by every caller of the model; 0 or unset = unlimited.
	 * @param weight This target's share: its weight over the sum of the model's weights.
	 */
	public record WeightedTarget(String pool, String targetModel, String adapter, Limits limits,
			@DefaultValue("1") int weight) implements Target {
	}

	/**
	 * One lane: requests of at most {@code max-tokens} estimated tokens go to {@code pool}.
	 *
	 * @param maxTokens The most estimated prompt tokens plus {@code max_tokens} this lane takes; unset: any.
	 * @param pool The pool that serves this lane.
	 */
	public record Lane(Integer maxTokens, String pool) {
	}
}
