package io.infergate.gateway.route;

import org.springframework.http.HttpHeaders;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.routing.limits.LimitState;
import io.infergate.routing.limits.Reservation;

/**
 * The rate-limit headers as OpenAI sends them, for the most restrictive request and token limits that apply:
 * {@code x-ratelimit-limit-requests}, {@code x-ratelimit-remaining-requests}, {@code x-ratelimit-reset-requests}
 * (until the limit is back to full, as a duration such as {@code 1s} or {@code 6m0s}) and the same three for
 * tokens; and for a refused request {@code Retry-After} (whole seconds, rounded up), {@code retry-after-ms} and
 * {@code x-infergate-dropped-reason: rate-limited}.
 */
public final class RateLimitHeaders {

	public static final String DROPPED_REASON_HEADER = "x-infergate-dropped-reason";

	public static final String RETRY_AFTER_MS_HEADER = "retry-after-ms";

	private RateLimitHeaders() {
	}

	/** Sets the {@code x-ratelimit-*} headers of the limits {@code reservation} reports. */
	public static void write(HttpHeaders headers, Reservation reservation) {
		write(headers, "requests", reservation.requests());
		write(headers, "tokens", reservation.tokenLimit());
	}

	private static void write(HttpHeaders headers, String unit, LimitState state) {
		if (state == null) {
			return;
		}
		headers.set("x-ratelimit-limit-" + unit, Long.toString(state.limit()));
		headers.set("x-ratelimit-remaining-" + unit, Long.toString(state.remaining()));
		headers.set("x-ratelimit-reset-" + unit, duration(Math.max(0, state.resetMicros())));
	}

	/** Sets {@code Retry-After}, {@code retry-after-ms} and the dropped reason of a refusal by {@code denied}. */
	public static void writeRefusal(HttpHeaders headers, LimitState denied) {
		long micros = denied.retryAfterMicros();
		headers.set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, ceilDiv(micros, 1_000_000))));
		headers.set(RETRY_AFTER_MS_HEADER, Long.toString(Math.max(1, ceilDiv(micros, 1000))));
		headers.set(DROPPED_REASON_HEADER, "rate-limited");
	}

	/**
	 * The 429 of a refusal by {@code denied}: "Rate limit reached for MODEL on tokens per min (TPM): Limit L, Used U,
	 * Requested R. Please try again in 644ms."
	 */
	public static OpenAiError refusal(String model, LimitState denied) {
		String message = "Rate limit reached for " + model + " on " + denied.kind().description() + ": Limit "
				+ denied.limit() + ", Used " + denied.used() + ", Requested " + denied.requested()
				+ ". Please try again in " + duration(denied.retryAfterMicros()) + ".";
		return OpenAiError.rateLimited(message, denied.kind().errorType());
	}

	/**
	 * A duration as OpenAI writes them (Go's format) at millisecond precision, rounded up: {@code 644ms},
	 * {@code 1s}, {@code 1.5s}, {@code 6m0s}, {@code 1h0m0s}.
	 */
	static String duration(long micros) {
		long millis = ceilDiv(micros, 1000);
		if (millis < 1000) {
			return millis + "ms";
		}
		long hours = millis / 3_600_000;
		long minutes = (millis / 60_000) % 60;
		long secondMillis = millis % 60_000;
		StringBuilder text = new StringBuilder();
		if (hours > 0) {
			text.append(hours).append('h');
		}
		if (hours > 0 || minutes > 0) {
			text.append(minutes).append('m');
		}
		text.append(secondMillis / 1000);
		long fraction = secondMillis % 1000;
		if (fraction > 0) {
			String digits = String.format("%03d", fraction);
			int end = digits.length();
			while (digits.charAt(end - 1) == '0') {
				end--;
			}
			text.append('.').append(digits, 0, end);
		}
		return text.append('s').toString();
	}

	private static long ceilDiv(long value, long divisor) {
		return -Math.floorDiv(-value, divisor);
	}
}
