package io.infergate.routing.limits;

/**
 * The limits one scope holds for one subject, e.g. key {@code team-a}'s 600 RPM and 200,000 TPM. Each non-zero
 * limit is a separate counter in the store, named {@link #storeKey(LimitKind)}.
 *
 * @param scope whose limits these are
 * @param subject the key id, tenant, model, or {@code keyId/model}
 * @param rpm requests per minute, 0 for unlimited
 * @param tpm tokens per minute, 0 for unlimited
 * @param maxParallel requests in flight at once, 0 for unlimited
 */
public record Bucket(LimitScope scope, String subject, long rpm, long tpm, int maxParallel) {

	public Bucket {
		if (rpm < 0 || tpm < 0 || maxParallel < 0) {
			throw new IllegalArgumentException("negative limit in " + scope.label() + " " + subject);
		}
	}

	static Bucket of(LimitScope scope, String subject, Limits limits) {
		return new Bucket(scope, subject, limits.rpmOrUnlimited(), limits.tpmOrUnlimited(),
				limits.maxParallelOrUnlimited());
	}

	/** The limit of {@code kind}, 0 for unlimited. */
	public long limit(LimitKind kind) {
		return switch (kind) {
			case RPM -> rpm;
			case TPM -> tpm;
			case MAX_PARALLEL -> maxParallel;
		};
	}

	public boolean isUnlimited() {
		return rpm == 0 && tpm == 0 && maxParallel == 0;
	}

	/** The name of one limit's counter, shared by every gateway replica: {@code rpm:key:team-a}. */
	public String storeKey(LimitKind kind) {
		return kind.configName() + ":" + scope.label() + ":" + subject;
	}

	/** As in logs and the 429 message: {@code key team-a}. */
	public String describe() {
		return scope.label() + " " + subject;
	}
}
