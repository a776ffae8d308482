package io.guard.breaker;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CircuitBreakerConfigTest {

    @Test
    void defaultsAreResilience4js() {
        CircuitBreakerConfig c = CircuitBreakerConfig.ofDefaults();
        assertThat(c.failureRateThreshold()).isEqualTo(50f);
        assertThat(c.slowCallRateThreshold()).isEqualTo(100f);
        assertThat(c.slowCallDurationThreshold()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.slidingWindowType()).isEqualTo(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED);
        assertThat(c.slidingWindowSize()).isEqualTo(100);
        assertThat(c.minimumNumberOfCalls()).isEqualTo(100);
        assertThat(c.permittedNumberOfCallsInHalfOpenState()).isEqualTo(10);
        assertThat(c.waitDurationInOpenState()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.exponentialBackoffMultiplier()).isEqualTo(1.0);
        assertThat(c.automaticTransitionFromOpenToHalfOpenEnabled()).isFalse();
        assertThat(c.maxWaitDurationInHalfOpenState()).isZero();
        assertThat(c.recordExceptions()).isEmpty();
        assertThat(c.ignoreExceptions()).isEmpty();
    }

    @Test
    void invalidValuesNameThePropertyAndTheValue() {
        assertInvalid(b -> b.failureRateThreshold(0), "failure-rate-threshold must be in (0, 100] but was 0.0");
        assertInvalid(b -> b.failureRateThreshold(100.5f), "failure-rate-threshold must be in (0, 100] but was 100.5");
        assertInvalid(b -> b.slowCallRateThreshold(-1), "slow-call-rate-threshold must be in (0, 100] but was -1.0");
        assertInvalid(b -> b.slowCallDurationThreshold(Duration.ZERO),
                "slow-call-duration-threshold must be positive but was PT0S");
        assertInvalid(b -> b.slidingWindowSize(0), "sliding-window-size must be at least 1 but was 0");
        assertInvalid(b -> b.minimumNumberOfCalls(-3), "minimum-number-of-calls must be at least 1 but was -3");
        assertInvalid(b -> b.permittedNumberOfCallsInHalfOpenState(0),
                "permitted-number-of-calls-in-half-open-state must be at least 1 but was 0");
        assertInvalid(b -> b.waitDurationInOpenState(Duration.ofSeconds(-1)),
                "wait-duration-in-open-state must be positive but was PT-1S");
        assertInvalid(b -> b.waitDurationInOpenState(Duration.ofNanos(10)),
                "wait-duration-in-open-state must be at least 1ms but was PT0.00000001S");
        assertInvalid(b -> b.exponentialBackoff(0.5, Duration.ofMinutes(5)),
                "exponential-backoff-multiplier must be a finite number >= 1 but was 0.5");
        assertInvalid(b -> b.exponentialBackoff(Double.NaN, Duration.ofMinutes(5)),
                "exponential-backoff-multiplier must be a finite number >= 1 but was NaN");
        assertInvalid(b -> b.exponentialBackoff(2, Duration.ofSeconds(1)),
                "exponential-max-wait-duration-in-open-state must not be shorter than wait-duration-in-open-state "
                        + "(PT1M) but was PT1S");
        assertInvalid(b -> b.maxWaitDurationInHalfOpenState(Duration.ofMillis(-1)),
                "max-wait-duration-in-half-open-state must not be negative but was PT-0.001S");
    }

    @Test
    void missingValuesNameTheProperty() {
        assertThatThrownBy(() -> CircuitBreakerConfig.builder().slidingWindowType(null).build())
                .isInstanceOf(NullPointerException.class).hasMessageContaining("sliding-window-type");
        assertThatThrownBy(() -> CircuitBreakerConfig.builder().waitDurationInOpenState(null).build())
                .isInstanceOf(NullPointerException.class).hasMessageContaining("wait-duration-in-open-state");
    }

    @Test
    void toBuilderKeepsEveryValue() {
        CircuitBreakerConfig c = CircuitBreakerConfig.builder().failureRateThreshold(20).slidingWindowSize(7)
                .exponentialBackoff(2, Duration.ofMinutes(10)).maxWaitDurationInHalfOpenState(Duration.ofSeconds(3))
                .automaticTransitionFromOpenToHalfOpenEnabled(true).build();
        assertThat(c.toBuilder().build()).isEqualTo(c);
        CircuitBreakerConfig longer = c.toBuilder().exponentialBackoff(1, null)
                .waitDurationInOpenState(Duration.ofMinutes(20)).build();
        assertThat(longer.exponentialMaxWaitDurationInOpenState()).isEqualTo(Duration.ofMinutes(20));
    }

    private static void assertInvalid(UnaryOperator<CircuitBreakerConfig.Builder> change, String message) {
        assertThatThrownBy(() -> change.apply(CircuitBreakerConfig.builder()).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }
}
