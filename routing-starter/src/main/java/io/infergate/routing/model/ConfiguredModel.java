package io.infergate.routing.model;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import io.infergate.routing.actuate.InferenceReport;
import io.infergate.routing.spend.Price;

/**
 * One model of {@code infergate.models}, checked: its weighted targets or its lanes, its stickiness, and its
 * fallbacks, both as configured and as the whole order a request tries them in.
 */
public final class ConfiguredModel {

	private final String name;

	private final WeightedTargets targets;

	private final Lanes lanes;

	private final StickyBy stickyBy;

	private final List<String> fallbacks;

	private final Price price;

	private final String tokenizer;

	private List<String> fallbackOrder = List.of();

	private List<String> attemptOrder;

	private final LongAdder fallbacksTaken = new LongAdder();

	/**
	 * Exactly one of {@code targets} and {@code lanes} is {@code null}; {@code price} is null when none is set;
	 * {@code tokenizer} is the path of the model's own tokenizer, or null.
	 */
	ConfiguredModel(String name, WeightedTargets targets, Lanes lanes, StickyBy stickyBy, List<String> fallbacks,
			Price price, String tokenizer) {
		this.name = name;
		this.tokenizer = tokenizer;
		this.price = price;
		this.targets = targets;
		this.lanes = lanes;
		this.stickyBy = stickyBy;
		this.fallbacks = List.copyOf(fallbacks);
		this.attemptOrder = List.of(name);
	}

	public String name() {
		return name;
	}

	/** What its tokens cost, per million; null when it has no price. */
	public Price price() {
		return price;
	}

	public StickyBy stickyBy() {
		return stickyBy;
	}

	public boolean hasLanes() {
		return lanes != null;
	}

	/**
	 * The route of one request: its lane by {@code estimatedTokens}, or its target by {@code stickyKey} (none:
	 * by weight). {@code null} when the model has lanes and none takes that many tokens.
	 */
	public ModelRoute route(String stickyKey, long estimatedTokens) {
		return (lanes != null) ? lanes.pick(estimatedTokens) : targets.pick(stickyKey);
	}

	/** The most estimated tokens a request may have to fit a lane ({@link Long#MAX_VALUE}: any). */
	public long largestRequestTokens() {
		return (lanes != null) ? lanes.largestTaken() : Long.MAX_VALUE;
	}

	/** Every route the model can take, targets or lanes, in configuration order. */
	public List<ModelRoute> routes() {
		return (lanes != null) ? lanes.routes() : targets.routes();
	}

	/** The fallbacks as configured. */
	public List<String> fallbacks() {
		return fallbacks;
	}

	/**
	 * Every model a request for this one may end up on, in the order tried: each fallback, followed by its own
	 * fallbacks, depth first, each model once.
	 */
	public List<String> fallbackOrder() {
		return fallbackOrder;
	}

	/** This model, then {@link #fallbackOrder()}: every model a request for it may try, in order. */
	public List<String> attemptOrder() {
		return attemptOrder;
	}

	void fallbackOrder(List<String> order) {
		this.fallbackOrder = List.copyOf(order);
		List<String> attempts = new ArrayList<>(1 + order.size());
		attempts.add(name);
		attempts.addAll(order);
		this.attemptOrder = List.copyOf(attempts);
	}

	/** Counts a request that this model could not serve and that moved on to a fallback. */
	public void countFallbackTaken() {
		fallbacksTaken.increment();
	}

	public InferenceReport.Model report() {
		return new InferenceReport.Model(name, (targets != null) ? targets.report() : List.of(),
				(lanes != null) ? lanes.report() : List.of(), stickyBy.configName(), fallbacks, fallbacksTaken.sum(),
				tokenizer);
	}
}
