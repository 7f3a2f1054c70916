package io.infergate.routing.limits;

/**
 * Who sent a request, as authentication established it: everything limits and flow control need
 * to know of the caller, in one record. The gateway keeps it with the rest of what it knows of a request
 * ({@code InfergateAttributes.INFERENCE_CONTEXT}); the bench harness builds it directly.
 *
 * @param keyId the API key's id: shown in logs, metrics and the dashboard, never the secret
 * @param tenant the tenant the key belongs to; limits and fairness are per tenant
 * @param priority the request's priority; below 0 is sheddable
 * @param tenantWeight the tenant's fairness weight
 */
public record Caller(String keyId, String tenant, int priority, double tenantWeight) {

	/** Key id and tenant of every request when authentication is off. */
	public static final String ANONYMOUS = "anonymous";

	private static final Caller ANONYMOUS_CALLER = new Caller(ANONYMOUS, ANONYMOUS, 0, 1.0);

	/** The caller of every request when authentication is off. */
	public static Caller anonymous() {
		return ANONYMOUS_CALLER;
	}

	/** This caller at {@code requested} priority when that is lower: a client may lower its priority, never raise it. */
	public Caller withPriorityAtMost(int requested) {
		return (requested < priority) ? new Caller(keyId, tenant, requested, tenantWeight) : this;
	}
}
