package io.guard.spring.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerConfig;
import io.guard.breaker.window.Snapshot;
import org.jspecify.annotations.Nullable;

/**
 * What the {@code guard} endpoint shows for one circuit breaker. Rates are numbers (percent, {@code -1} while
 * fewer than {@code minimum-number-of-calls} were made) and durations are milliseconds, so dashboards and
 * {@code jq} can compare them without parsing strings.
 *
 * @param type               always {@code circuit-breaker}, so a client can tell the entries apart
 * @param state              the current state, e.g. {@code CLOSED}
 * @param remainingOpenTimeMs time left in OPEN before a trial call is allowed; 0 in every other state
 * @param metrics            what the sliding window holds now
 * @param config             the thresholds and window the breaker decides with
 * @param fleet              this instance's name and the last fleet-wide command it applied; absent unless
 *                           fleet-wide control is enabled
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CircuitBreakerDescriptor(String type, String state, long remainingOpenTimeMs, Metrics metrics,
                                       Config config, @Nullable Fleet fleet) {

    static CircuitBreakerDescriptor of(CircuitBreaker breaker) {
        Snapshot s = breaker.snapshot();
        CircuitBreakerConfig c = breaker.config();
        return new CircuitBreakerDescriptor("circuit-breaker", breaker.state().name(),
                breaker.remainingOpenTime().toMillis(),
                new Metrics(s.failureRate(), s.slowCallRate(), s.calls(), s.failedCalls(), s.slowCalls(),
                        s.slowFailedCalls(), breaker.notPermittedCalls(), s.averageDuration().toNanos() / 1e6),
                new Config(c.failureRateThreshold(), c.slowCallRateThreshold(),
                        c.slowCallDurationThreshold().toMillis(), c.slidingWindowType().name(),
                        c.slidingWindowSize(), c.minimumNumberOfCalls(), c.permittedNumberOfCallsInHalfOpenState(),
                        c.waitDurationInOpenState().toMillis(), c.automaticTransitionFromOpenToHalfOpenEnabled()),
                null);
    }

    CircuitBreakerDescriptor withFleet(Fleet fleet) {
        return new CircuitBreakerDescriptor(type, state, remainingOpenTimeMs, metrics, config, fleet);
    }

    /**
     * Which instance this is, and what the fleet last asked of the breaker: with {@code state} above, which instance
     * is in which state.
     *
     * @param instance this instance's name ({@code guard.circuit-breaker.fleet.instance-id})
     * @param command  the last fleet-wide command applied to this breaker here; absent if none
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Fleet(String instance, @Nullable FleetCommand command) {
    }

    /**
     * A fleet-wide command as the endpoint shows it.
     *
     * @param state FORCED_OPEN, DISABLED, CLOSED or RESET
     * @param by    who asked
     * @param from  the instance it was sent from
     * @param at    when it was sent (ISO-8601)
     */
    public record FleetCommand(String state, String by, String from, String at) {

        static FleetCommand of(io.guard.spring.breaker.FleetCommand command) {
            return new FleetCommand(command.state().name(), command.by(), command.from(), command.at().toString());
        }
    }

    /**
     * @param failureRate       percentage of failed calls in the window, or -1 below minimum calls
     * @param slowCallRate      percentage of slow calls in the window, or -1 below minimum calls
     * @param bufferedCalls     calls in the window
     * @param failedCalls       failed calls in the window
     * @param slowCalls         slow calls in the window (failed or not)
     * @param slowFailedCalls   slow calls that also failed
     * @param notPermittedCalls calls refused since the breaker was created or last reset
     * @param averageDurationMs mean duration of the calls in the window
     */
    public record Metrics(float failureRate, float slowCallRate, int bufferedCalls, int failedCalls, int slowCalls,
                          int slowFailedCalls, long notPermittedCalls, double averageDurationMs) {
    }

    /**
     * The configuration that matters when reading the metrics; names as in {@code guard.circuit-breaker.*}.
     */
    public record Config(float failureRateThreshold, float slowCallRateThreshold, long slowCallDurationThresholdMs,
                         String slidingWindowType, int slidingWindowSize, int minimumNumberOfCalls,
                         int permittedNumberOfCallsInHalfOpenState, long waitDurationInOpenStateMs,
                         boolean automaticTransitionFromOpenToHalfOpenEnabled) {
    }
}
