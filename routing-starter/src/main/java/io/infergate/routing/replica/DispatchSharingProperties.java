package io.infergate.routing.replica;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Shared dispatch memory between gateway replicas ({@link DispatchSharing}), under
 * {@code infergate.scheduling.dispatch-sharing}.
 *
 * @param transport {@code none} (the default: each replica's prefix index learns only from its own dispatches) or
 * {@code redis} (replicas publish their dispatches on a pub/sub channel of {@code infergate.redis.url} and record
 * each other's)
 * @param channel the pub/sub channel; replicas that route the same pools share one; default
 * {@code infergate:dispatches}
 */
@Validated
@ConfigurationProperties("infergate.scheduling.dispatch-sharing")
public record DispatchSharingProperties(@DefaultValue("none") @NotNull Transport transport,
		@DefaultValue("infergate:dispatches") @NotBlank String channel) {

	public enum Transport {

		/** No sharing. */
		NONE,

		/** Redis pub/sub. */
		REDIS
	}
}
