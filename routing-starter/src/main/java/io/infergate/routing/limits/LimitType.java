package io.infergate.routing.limits;

/**
 * A kind of limit of an application's own, beside the built-in key, tenant, model and key × model limits: it says
 * which subject's bucket a request is charged to, and configuration gives each subject its limits,
 * <pre>
 * infergate.rate-limits.by.&lt;type name&gt;.&lt;subject&gt;: {rpm: 600, tpm: 200000, max-parallel: 32}
 * </pre>
 * A type is a bean; it counts once some subject of it has a limit. Its buckets are checked and charged with the
 * others, atomically, in the same store, and its refusals are 429s like theirs, counted in
 * {@code infergate.tenant.rate.limited} with the type's name as {@code scope}. Called once per request and model tried, so it must be cheap and must not block.
 */
public interface LimitType {

	/** The type's name: its key under {@code infergate.rate-limits.by} and its scope in store keys and metrics. */
	String name();

	/**
	 * The subject whose bucket {@code caller} calling {@code model} is charged to, or {@code null} when none is: the
	 * request is then not limited by this type.
	 */
	String subject(Caller caller, String model);
}
