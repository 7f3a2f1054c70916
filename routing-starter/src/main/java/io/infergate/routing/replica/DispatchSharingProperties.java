package io.infergate.routing.replica;

import java.net.URI;

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
 * {@code redis} (replicas publish their dispatches on a Redis pub/sub channel and record each other's)
 * @param redisUrl the Redis server, {@code redis://[user:password@]host:port[/db]}; default
 * {@code redis://127.0.0.1:6379}
 * @param channel the pub/sub channel; replicas that route the same pools share one; default
 * {@code infergate:dispatches}
 */
@Validated
@ConfigurationProperties("infergate.scheduling.dispatch-sharing")
public record DispatchSharingProperties(@DefaultValue("none") @NotNull Transport transport,
		@DefaultValue("redis://127.0.0.1:6379") @NotNull URI redisUrl,
		@DefaultValue("infergate:dispatches") @NotBlank String channel) {

	public enum Transport {

		/** No sharing. */
		NONE,

		/** Redis pub/sub. */
		REDIS
	}
}
