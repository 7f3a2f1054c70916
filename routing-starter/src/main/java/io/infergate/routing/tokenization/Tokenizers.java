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
	public static final Tokenizers NONE = new Tokenizers(Map.of(), Map.of(), List.of(), Map.of());

	private final Map<String, RequestTokenizer> byModel;

	private final Map<String, RequestTokenizer> byPool;

	private final List<RequestTokenizer> created;

	/** {@code routing-tokens} by {@code "model:"} or {@code "pool:"} and the name. */
	private final Map<String, Integer> routingTokens;

	private final boolean anyCostly;

	private Tokenizers(Map<String, RequestTokenizer> byModel, Map<String, RequestTokenizer> byPool,
			List<RequestTokenizer> created, Map<String, Integer> routingTokens) {
		this.byModel = byModel;
		this.byPool = byPool;
		this.created = created;
		this.routingTokens = routingTokens;
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
		Map<String, RequestTokenizer> byModel = new LinkedHashMap<>();
		Map<String, RequestTokenizer> byPool = new LinkedHashMap<>();
		Map<String, Integer> routingTokens = new HashMap<>();
		List<String> problems = new ArrayList<>();
		pools.pools().forEach((name, pool) -> create("infergate.pools." + name + ".tokenizer", pool.tokenizer(),
				typesByName, distinct, problems).ifPresent((tokenizer) -> {
					byPool.put(name, tokenizer);
					routingTokens.put("pool:" + name, pool.tokenizer().routingTokens());
				}));
		models.models().forEach((name, model) -> create("infergate.models." + name + ".tokenizer", model.tokenizer(),
				typesByName, distinct, problems).ifPresent((tokenizer) -> {
					byModel.put(name, tokenizer);
					routingTokens.put("model:" + name, model.tokenizer().routingTokens());
				}));
		List<RequestTokenizer> created = List.copyOf(distinct.values());
		if (!problems.isEmpty()) {
			created.forEach(Tokenizers::close);
			throw new InvalidConfigurationException(problems);
		}
		return created.isEmpty() ? NONE : new Tokenizers(byModel, byPool, created, routingTokens);
	}

	private static Optional<RequestTokenizer> create(String property, TokenizerSettings settings,
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
		return Optional.of(tokenizer);
	}

	/** The tokenizer of {@code model} served by {@code pool}: the model's own, else the pool's, else {@code null}. */
	public RequestTokenizer forRoute(String model, String pool) {
		RequestTokenizer own = byModel.get(model);
		return (own != null || pool == null) ? own : byPool.get(pool);
	}

	/**
	 * The most leading token ids routing uses for {@code model} served by {@code pool}: the {@code routing-tokens} of
	 * the tokenizer {@link #forRoute} gives, or {@link TokenizerSettings#DEFAULT_ROUTING_TOKENS} without one.
	 */
	public int routingTokens(String model, String pool) {
		Integer own = byModel.containsKey(model) ? routingTokens.get("model:" + model) : null;
		if (own == null && pool != null) {
			own = routingTokens.get("pool:" + pool);
		}
		return (own != null) ? own : TokenizerSettings.DEFAULT_ROUTING_TOKENS;
	}

	/** The pool's tokenizer, or {@code null}. */
	public RequestTokenizer forPool(String pool) {
		return byPool.get(pool);
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
