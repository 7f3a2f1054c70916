package io.infergate.routing.spend;

import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Spend, {@code infergate.usage}.
 *
 * @param currency The currency of every price ({@code infergate.models.<m>.price}) and cost, as a label: no rates.
 */
@Validated
@ConfigurationProperties("infergate.usage")
public record UsageProperties(@DefaultValue("USD") @NotBlank String currency) {
}
