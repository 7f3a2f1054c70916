package io.infergate.gateway.capture;

import java.nio.file.Path;
import java.time.Duration;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Traffic capture, {@code infergate.capture.*}: one anonymized record per inference request, written to rotating
 * gzip-compressed JSON Lines files ({@code docs/capture.md} describes the records).
 *
 * @param enabled Whether inference requests are captured.
 * @param directory Directory the capture files are written to; created when missing, and it must be writable.
 * @param sampleRatio Share of inference requests captured, decided per request; greater than 0 and at most 1.
 * @param maxFileSize Compressed bytes written to one capture file before the next record starts a new file.
 * @param maxFileAge Age of a capture file after which the next record starts a new file.
 * @param queueCapacity Records waiting to be written at most; a record offered to a full queue is dropped and
 * counted.
 */
@Validated
@ConfigurationProperties(CaptureProperties.PREFIX)
public record CaptureProperties(@DefaultValue("false") boolean enabled,
		@DefaultValue("./captures") @NotNull Path directory,
		@DefaultValue("1.0") @DecimalMin(value = "0", inclusive = false) @DecimalMax("1") double sampleRatio,
		@DefaultValue("64MB") @NotNull DataSize maxFileSize, @DefaultValue("1h") @NotNull Duration maxFileAge,
		@DefaultValue("65536") @Positive int queueCapacity) {

	public static final String PREFIX = "infergate.capture";
}
