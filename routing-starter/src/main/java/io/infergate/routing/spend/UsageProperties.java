package io.infergate.routing.spend;

import java.net.URI;
import java.time.Duration;
import java.time.ZoneId;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Spend and budgets, {@code infergate.usage}.
 *
 * @param currency The currency of every price ({@code infergate.models.<m>.price}), cost and budget, as a label: no rates.
 * @param budgetZone The time zone whose calendar days and months the day and month budgets count.
 * @param budgetWebhook Where to POST a JSON event when a budget is reached (once per budget and period); unset: none.
 */
@Validated
@ConfigurationProperties("infergate.usage")
public record UsageProperties(@DefaultValue("USD") @NotBlank String currency,
		@DefaultValue("UTC") @NotNull ZoneId budgetZone, @Valid @DefaultValue Webhook budgetWebhook) {

	/**
	 * A webhook told when a budget is reached.
	 *
	 * @param url The URL to POST to; unset: no webhook.
	 * @param attempts How many times an event is sent before it is dropped (with a warning in the log).
	 * @param timeout How long one attempt may take.
	 * @param firstRetry The wait before the second attempt; it doubles after each failed one.
	 */
	public record Webhook(URI url, @DefaultValue("4") @Min(1) int attempts, @DefaultValue("5s") Duration timeout,
			@DefaultValue("1s") Duration firstRetry) {
	}
}
