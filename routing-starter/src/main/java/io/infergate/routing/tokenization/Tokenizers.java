package io.infergate.routing.tokenization;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.infergate.routing.config.InvalidConfigurationException;
import io.infergate.routing.model.ModelProperties;
import io.infergate.routing.pool.PoolProperties;

/**
 * The tokenizers configured for models and pools, each distinct one created once at startup. A model's own
 * ({@code infergate.models.<m>.tokenizer}) wins over its pool's ({@code infergate.pools.<p>.tokenizer}); a request
 * to a model with neither has its tokens estimated.
 */
public final class Tokenizers implements AutoCloseable {

	/** No tokenizer anywhere: every count is an estimate. */
	public static final Tokenizers NONE = new Tokenizers(Map.of(), Map.of(), List.of());

	private final Map<String, Assigned> byModel;

	private final Map<String, Assigned> byPool;

	private final List<RequestTokenizer> created;

	private final boolean anyCostly;

	/**
	 * A model's or pool's tokenizer with its {@code routing-tokens}: settings that differ only in those share one
	 * tokenizer.
	 */
	public record Assigned(RequestTokenizer tokenizer, int routingTokens) {
	}

	private Tokenizers(Map<String, Assigned> byModel, Map<String, Assigned> byPool, List<RequestTokenizer> created) {
		this.byModel = byModel;
		this.byPool = byPool;
		this.created = created;
		this.anyCostly = created.stream().anyMatch(RequestTokenizer::costly);
	}

	/**
	 * Creates every configured tokenizer.
	 *
	 * @param types the kinds of tokenizer {@code tokenizer.type} may name
	 * @throws InvalidConfigurationException naming the property of each tokenizer that is missing or invalid
	 */
	public static Tokenizers load(ModelProperties models, PoolProperties pools, List<TokenizerType> types) {
		Map<String, TokenizerType> typesByName = new TreeMap<>();
		types.forEach((type) -> typesByName.put(type.name(), type));
		Map<TokenizerSettings, RequestTokenizer> distinct = new HashMap<>();
		Map<String, Assigned> byModel = new LinkedHashMap<>();
		Map<String, Assigned> byPool = new LinkedHashMap<>();
		List<String> problems = new ArrayList<>();
		pools.pools().forEach((name, pool) -> create("infergate.pools." + name + ".tokenizer", pool.tokenizer(),
				typesByName, distinct, problems).ifPresent((assigned) -> byPool.put(name, assigned)));
		models.models().forEach((name, model) -> create("infergate.models." + name + ".tokenizer", model.tokenizer(),
				typesByName, distinct, problems).ifPresent((assigned) -> byModel.put(name, assigned)));
		List<RequestTokenizer> created = List.copyOf(distinct.values());
		if (!problems.isEmpty()) {
			created.forEach(Tokenizers::close);
			throw new InvalidConfigurationException(problems);
		}
		return created.isEmpty() ? NONE : new Tokenizers(byModel, byPool, created);
	}

	private static Optional<Assigned> create(String property, TokenizerSettings settings,
			Map<String, TokenizerType> types, Map<TokenizerSettings, RequestTokenizer> distinct,
			List<String> problems) {
		if (settings == null) {
			return Optional.empty();
		}
		RequestTokenizer tokenizer = distinct.get(settings.tokenizerOnly());
		if (tokenizer == null) {
			TokenizerType type = types.get(settings.typeName());
			if (type == null) {
				problems.add(property + ".type: unknown type '" + settings.typeName() + "'; the types are "
						+ types.keySet());
				return Optional.empty();
			}
			try {
				tokenizer = type.create(settings);
			}
			catch (IllegalArgumentException ex) {
				String message = ex.getMessage();
				boolean named = message.startsWith("path: ") || message.startsWith("chat-template: ");
				problems.add(property + (named ? "." + message : ": " + message));
				return Optional.empty();
			}
			distinct.put(settings.tokenizerOnly(), tokenizer);
		}
		return Optional.of(new Assigned(tokenizer, settings.routingTokens()));
	}

	/** The tokenizer of {@code model} served by {@code pool}: the model's own, else the pool's, else {@code null}. */
	public RequestTokenizer forRoute(String model, String pool) {
		Assigned assigned = assignedForRoute(model, pool);
		return (assigned != null) ? assigned.tokenizer() : null;
	}

	/** {@link #forRoute}'s tokenizer with its {@code routing-tokens}, or {@code null}. */
	public Assigned assignedForRoute(String model, String pool) {
		Assigned own = byModel.get(model);
		return (own != null || pool == null) ? own : byPool.get(pool);
	}

	/**
	 * The most leading token ids routing uses for {@code model} served by {@code pool}: the {@code routing-tokens} of
	 * the tokenizer {@link #forRoute} gives, or {@link TokenizerSettings#DEFAULT_ROUTING_TOKENS} without one.
	 */
	public int routingTokens(String model, String pool) {
		Assigned assigned = assignedForRoute(model, pool);
		return (assigned != null) ? assigned.routingTokens() : TokenizerSettings.DEFAULT_ROUTING_TOKENS;
	}

	/** The pool's tokenizer, or {@code null}. */
	public RequestTokenizer forPool(String pool) {
		Assigned assigned = byPool.get(pool);
		return (assigned != null) ? assigned.tokenizer() : null;
	}

	/** Every distinct tokenizer. */
	public List<RequestTokenizer> all() {
		return created;
	}

	/** Whether any model or pool has a tokenizer. */
	public boolean any() {
		return !created.isEmpty();
	}

	/** Whether any model or pool has a tokenizer whose work belongs off the event loops. */
	public boolean anyCostly() {
		return anyCostly;
	}

	@Override
	public void close() {
		created.forEach(Tokenizers::close);
	}

	private static void close(RequestTokenizer tokenizer) {
		if (tokenizer instanceof AutoCloseable closeable) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				// a native handle's release cannot fail in a way the caller could act on
			}
		}
	}
}
