package io.infergate.routing.limits;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.infergate.routing.spend.Budget;
import io.infergate.routing.spend.BudgetLine;

/**
 * Which limits apply to a caller calling a model: up to four buckets, each checked and charged on every request.
 * <ol>
 * <li>the key's own limits ({@code infergate.auth.keys.<id>.limits}), each field it leaves out taken from
 * {@code infergate.rate-limits.default-limits}; a caller without a configured key (the anonymous caller when
 * authentication is off) has the default limits;</li>
 * <li>the tenant's limits, shared by all its keys ({@code infergate.auth.tenants.<tenant>.limits});</li>
 * <li>the model's limits, shared by all callers ({@code infergate.models.<model>.limits});</li>
 * <li>the key × model limits ({@code infergate.auth.keys.<id>.model-limits.<model>}).</li>
 * </ol>
 * Then one bucket per {@link LimitType} of the application's own, for the subject it names
 * ({@code infergate.rate-limits.by.<type>.<subject>}). Buckets without any limit are left out. The built-in lists
 * are computed once per key and model and then reused; a type's bucket once per subject.
 * <p>
 * The same blocks give the request's budgets ({@link BudgetLine}): each block with a {@code budget}, in the same
 * order.
 */
public final class RateLimitPolicy {

	/**
	 * One key's limits.
	 *
	 * @param tenant the key's tenant
	 * @param limits its own limits, or {@code null}
	 * @param modelLimits its limits per model name
	 */
	public record KeyLimits(String tenant, Limits limits, Map<String, Limits> modelLimits) {
	}

	private final Map<String, KeyLimits> keys;

	private final Map<String, Limits> tenants;

	private final Map<String, Limits> models;

	private final Limits defaults;

	private final List<TypedLimits> types;

	private final boolean limitsAnything;

	private final boolean budgetsAnything;

	private final ConcurrentHashMap<String, ConcurrentHashMap<String, Applicable>> cache = new ConcurrentHashMap<>();

	/**
	 * What applies to one request: its rate-limit buckets and its budgets.
	 *
	 * @param buckets the buckets, possibly none
	 * @param budgets the budgets, possibly none
	 */
	public record Applicable(List<Bucket> buckets, List<BudgetLine> budgets) {

		static final Applicable NOTHING = new Applicable(List.of(), List.of());
	}

	public RateLimitPolicy(Map<String, KeyLimits> keys, Map<String, Limits> tenants, Map<String, Limits> models,
			Limits defaults) {
		this(keys, tenants, models, defaults, List.of());
	}

	/**
	 * @param types the application's own limit types that some subject has limits of, each with those limits
	 */
	public RateLimitPolicy(Map<String, KeyLimits> keys, Map<String, Limits> tenants, Map<String, Limits> models,
			Limits defaults, List<TypedLimits> types) {
		this.types = List.copyOf(types);
		this.keys = Map.copyOf(keys);
		this.tenants = Map.copyOf(tenants);
		this.models = Map.copyOf(models);
		this.defaults = (defaults != null) ? defaults : Limits.NONE;
		this.budgetsAnything = this.defaults.budget() != null || anyBudget(this.tenants.values())
				|| anyBudget(this.models.values()) || this.types.stream().anyMatch(TypedLimits::budgetsAnything)
				|| this.keys.values()
					.stream()
					.anyMatch((key) -> (key.limits() != null && key.limits().budget() != null)
							|| anyBudget(key.modelLimits().values()));
		this.limitsAnything = this.budgetsAnything || !this.types.isEmpty() || !this.defaults.isUnlimited()
				|| anyLimit(this.tenants.values()) || anyLimit(this.models.values()) || this.keys.values()
					.stream()
					.anyMatch((key) -> (key.limits() != null && !key.limits().isUnlimited())
							|| anyLimit(key.modelLimits().values()));
	}

	/** A policy that limits nothing. */
	public static RateLimitPolicy unlimited() {
		return new RateLimitPolicy(Map.of(), Map.of(), Map.of(), Limits.NONE);
	}

	/** Whether any limit or budget is configured at all. */
	public boolean limitsAnything() {
		return limitsAnything;
	}

	/** Whether any budget is configured. */
	public boolean budgetsAnything() {
		return budgetsAnything;
	}

	/** The buckets {@code caller} calling {@code model} is checked against, in the order of the class comment. */
	public List<Bucket> buckets(Caller caller, String model) {
		return applicable(caller, model).buckets();
	}

	/** The buckets and budgets {@code caller} calling {@code model} is checked against. */
	public Applicable applicable(Caller caller, String model) {
		ConcurrentHashMap<String, Applicable> byModel = cache.computeIfAbsent(caller.keyId(),
				(key) -> new ConcurrentHashMap<>());
		Applicable applicable = byModel.get(model);
		if (applicable == null) {
			applicable = byModel.computeIfAbsent(model, (m) -> compute(caller.keyId(), caller.tenant(), m));
		}
		return types.isEmpty() ? applicable : withTypes(applicable, caller, model);
	}

	private Applicable withTypes(Applicable builtIn, Caller caller, String model) {
		List<Bucket> buckets = null;
		List<BudgetLine> budgets = null;
		for (TypedLimits typed : types) {
			String subject = typed.type().subject(caller, model);
			if (subject == null) {
				continue;
			}
			Bucket bucket = typed.bucket(subject);
			if (bucket != null) {
				if (buckets == null) {
					buckets = new ArrayList<>(builtIn.buckets());
				}
				buckets.add(bucket);
			}
			BudgetLine budget = typed.budget(subject);
			if (budget != null) {
				if (budgets == null) {
					budgets = new ArrayList<>(builtIn.budgets());
				}
				budgets.add(budget);
			}
		}
		return (buckets == null && budgets == null) ? builtIn
				: new Applicable((buckets != null) ? buckets : builtIn.buckets(),
						(budgets != null) ? budgets : builtIn.budgets());
	}

	private Applicable compute(String keyId, String tenant, String model) {
		List<Bucket> buckets = new ArrayList<>(4);
		List<BudgetLine> budgets = new ArrayList<>(0);
		KeyLimits key = keys.get(keyId);
		add(buckets, budgets, LimitScope.KEY, keyId,
				((key != null && key.limits() != null) ? key.limits() : Limits.NONE).orElse(defaults));
		add(buckets, budgets, LimitScope.TENANT, tenant, tenants.get(tenant));
		add(buckets, budgets, LimitScope.MODEL, model, models.get(model));
		if (key != null) {
			add(buckets, budgets, LimitScope.KEY_MODEL, keyId + "/" + model, key.modelLimits().get(model));
		}
		return (buckets.isEmpty() && budgets.isEmpty()) ? Applicable.NOTHING
				: new Applicable(List.copyOf(buckets), List.copyOf(budgets));
	}

	private static void add(List<Bucket> buckets, LimitScope scope, String subject, Limits limits) {
		if (limits != null && !limits.isUnlimited()) {
			buckets.add(Bucket.of(scope, subject, limits));
		}
	}

	private static void add(List<Bucket> buckets, List<BudgetLine> budgets, LimitScope scope, String subject,
			Limits limits) {
		add(buckets, scope, subject, limits);
		if (limits != null && limits.budget() != null) {
			budgets.add(new BudgetLine(scope, subject, limits.budget()));
		}
	}

	/**
	 * Every configured budget, for reports: each key's own (or the default's), its key × model ones, the anonymous
	 * caller's when no key is named so and the defaults have one, each tenant's, each model's, each typed subject's.
	 */
	public List<BudgetLine> allBudgets() {
		List<BudgetLine> lines = new ArrayList<>();
		new java.util.TreeMap<>(keys).forEach((id, key) -> {
			Limits own = ((key.limits() != null) ? key.limits() : Limits.NONE).orElse(defaults);
			if (own.budget() != null) {
				lines.add(new BudgetLine(LimitScope.KEY, id, own.budget()));
			}
			new java.util.TreeMap<>(key.modelLimits()).forEach((model, limits) -> {
				if (limits != null && limits.budget() != null) {
					lines.add(new BudgetLine(LimitScope.KEY_MODEL, id + "/" + model, limits.budget()));
				}
			});
		});
		if (defaults.budget() != null && !keys.containsKey(Caller.ANONYMOUS)) {
			lines.add(new BudgetLine(LimitScope.KEY, Caller.ANONYMOUS, defaults.budget()));
		}
		new java.util.TreeMap<>(tenants).forEach((tenant, limits) -> {
			if (limits != null && limits.budget() != null) {
				lines.add(new BudgetLine(LimitScope.TENANT, tenant, limits.budget()));
			}
		});
		new java.util.TreeMap<>(models).forEach((model, limits) -> {
			if (limits != null && limits.budget() != null) {
				lines.add(new BudgetLine(LimitScope.MODEL, model, limits.budget()));
			}
		});
		types.forEach((typed) -> lines.addAll(typed.budgets.values()));
		return lines;
	}

	/**
	 * The buckets of {@code tenant} for reports: the tenant's own, then each of its keys' own and key × model
	 * buckets, by key id.
	 */
	public List<Bucket> tenantBuckets(String tenant) {
		List<Bucket> buckets = new ArrayList<>();
		add(buckets, LimitScope.TENANT, tenant, tenants.get(tenant));
		keysOf(tenant).forEach((id, key) -> {
			add(buckets, LimitScope.KEY, id, ((key.limits() != null) ? key.limits() : Limits.NONE).orElse(defaults));
			key.modelLimits().forEach((model, limits) -> add(buckets, LimitScope.KEY_MODEL, id + "/" + model, limits));
		});
		if (Caller.ANONYMOUS.equals(tenant) && !keys.containsKey(Caller.ANONYMOUS)) {
			add(buckets, LimitScope.KEY, Caller.ANONYMOUS, defaults);
		}
		return buckets;
	}

	/** Every model bucket, for reports. */
	public List<Bucket> modelBuckets() {
		List<Bucket> buckets = new ArrayList<>();
		models.forEach((model, limits) -> add(buckets, LimitScope.MODEL, model, limits));
		return buckets;
	}

	/** The tenants named by a key or with limits of their own, sorted. */
	public List<String> tenants() {
		java.util.TreeSet<String> names = new java.util.TreeSet<>(tenants.keySet());
		keys.values().forEach((key) -> names.add(key.tenant()));
		return List.copyOf(names);
	}

	private Map<String, KeyLimits> keysOf(String tenant) {
		Map<String, KeyLimits> ofTenant = new LinkedHashMap<>();
		new java.util.TreeMap<>(keys).forEach((id, key) -> {
			if (tenant.equals(key.tenant())) {
				ofTenant.put(id, key);
			}
		});
		return Collections.unmodifiableMap(ofTenant);
	}

	private static boolean anyLimit(java.util.Collection<Limits> limits) {
		return limits.stream().anyMatch((l) -> l != null && !l.isUnlimited());
	}

	private static boolean anyBudget(java.util.Collection<Limits> limits) {
		return limits.stream().anyMatch((l) -> l != null && l.budget() != null);
	}

	/** A {@link LimitType} with the limits configuration gives its subjects, as buckets. */
	public static final class TypedLimits {

		private final LimitType type;

		private final Map<String, Bucket> buckets;

		private final Map<String, BudgetLine> budgets;

		/**
		 * @param type the type
		 * @param limits each subject's limits; subjects without any limit get no bucket, without a budget no budget
		 */
		public TypedLimits(LimitType type, Map<String, Limits> limits) {
			this.type = type;
			LimitScope scope = new LimitScope(type.name());
			Map<String, Bucket> buckets = new LinkedHashMap<>();
			Map<String, BudgetLine> budgets = new java.util.TreeMap<>();
			limits.forEach((subject, configured) -> {
				if (configured != null && !configured.isUnlimited()) {
					buckets.put(subject, Bucket.of(scope, subject, configured));
				}
				Budget budget = (configured != null) ? configured.budget() : null;
				if (budget != null) {
					budgets.put(subject, new BudgetLine(scope, subject, budget));
				}
			});
			this.buckets = Map.copyOf(buckets);
			this.budgets = java.util.Collections.unmodifiableMap(budgets);
		}

		boolean budgetsAnything() {
			return !budgets.isEmpty();
		}

		/** The subject's budget, or {@code null} when it has none. */
		BudgetLine budget(String subject) {
			return budgets.get(subject);
		}

		public LimitType type() {
			return type;
		}

		/** Whether some subject has a limit or a budget. */
		public boolean limitsAnything() {
			return !buckets.isEmpty() || !budgets.isEmpty();
		}

		/** The subject's bucket, or {@code null} when it has no limit. */
		Bucket bucket(String subject) {
			return buckets.get(subject);
		}
	}
}
