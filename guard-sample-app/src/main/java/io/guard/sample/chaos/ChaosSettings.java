package io.guard.sample.chaos;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * How the simulated inventory downstream misbehaves: the share of calls that fail and the time every call takes.
 *
 * @param failureRate probability in [0, 1] that a call fails
 * @param latencyMs   milliseconds every call takes before it answers or fails, in [0, 60000]
 */
public record ChaosSettings(
        @NotNull(message = "is required (a number from 0.0 to 1.0)")
        @DecimalMin(value = "0.0", message = "must be between 0.0 and 1.0")
        @DecimalMax(value = "1.0", message = "must be between 0.0 and 1.0")
        Double failureRate,
        @NotNull(message = "is required (milliseconds from 0 to 60000)")
        @Min(value = 0, message = "must be between 0 and 60000 ms")
        @Max(value = 60_000, message = "must be between 0 and 60000 ms")
        Long latencyMs) {
}
