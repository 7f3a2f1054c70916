package io.infergate.routing.limits;

import org.springframework.boot.context.properties.bind.ConstructorBinding;

import io.infergate.routing.spend.Budget;

/**
 * Rate limits as configured, {@code {rpm: 600, tpm: 200000, max-parallel: 32}}: requests per minute, tokens
 * (prompt + completion) per minute, and requests in flight at once. {@code 0} means unlimited; an absent
 * ({@code null}) field takes its value from the defaults it is {@linkplain #orElse combined} with.
 *
 * @param rpm requests per minute
 * @param tpm tokens per minute
 * @param maxParallel requests in flight at once
 * @param budget what may be spent per day, month or rolling 24 hours ({@link Budget})
 */
public record Limits(Long rpm, Long tpm, Integer maxParallel, Budget budget) {

	/** No limit set. */
	public static final Limits NONE = new Limits(null, null, null, null);

	@ConstructorBinding
	public Limits {
	}

	/** Rate limits without a budget. */
	public Limits(Long rpm, Long tpm, Integer maxParallel) {
		this(rpm, tpm, maxParallel, null);
	}

	/** Each field that is absent here taken from {@code defaults}. */
	public Limits orElse(Limits defaults) {
		if (defaults == null) {
			return this;
		}
		return new Limits((rpm != null) ? rpm : defaults.rpm, (tpm != null) ? tpm : defaults.tpm,
				(maxParallel != null) ? maxParallel : defaults.maxParallel, (budget != null) ? budget : defaults.budget);
	}

	public long rpmOrUnlimited() {
		return (rpm != null) ? rpm : 0;
	}

	public long tpmOrUnlimited() {
		return (tpm != null) ? tpm : 0;
	}

	public int maxParallelOrUnlimited() {
		return (maxParallel != null) ? maxParallel : 0;
	}

	/** Whether no rate limit (RPM, TPM, max-parallel) limits anything; a budget is not one. */
	public boolean isUnlimited() {
		return rpmOrUnlimited() <= 0 && tpmOrUnlimited() <= 0 && maxParallelOrUnlimited() <= 0;
	}
}
