package io.guard.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A permit's {@code onError} says how it classified the error, so a caller need not classify it again. */
class PermitClassificationTest {

    private final TestBreakers t = new TestBreakers();

    private CircuitBreaker breaker() {
        return t.breaker(CircuitBreakerConfig.builder().slidingWindowSize(10).minimumNumberOfCalls(2)
                .recordExceptions(List.of(IOException.class))
                .ignoreExceptions(List.of(IllegalArgumentException.class)).build());
    }

    @Test
    void onErrorReturnsWhetherTheErrorWasRecordedAsAFailure() {
        CircuitBreaker b = breaker();
        assertThat(b.acquire().onError(new IOException("down"))).isTrue();
        assertThat(b.acquire().onError(new IllegalArgumentException("ignored"))).isFalse();
        assertThat(b.acquire().onError(new IllegalStateException("not recorded"))).isFalse();
        assertThat(b.snapshot().failedCalls()).isEqualTo(1);
        assertThat(b.snapshot().calls()).isEqualTo(2);
    }

    @Test
    void anAnsweredPermitStillClassifiesLikeTheBreaker() {
        CircuitBreaker b = breaker();
        CircuitBreaker.Permit permit = b.acquire();
        permit.onSuccess();
        assertThat(permit.onError(new IOException("late")))
                .isEqualTo(CircuitBreakerPermissions.of(b).recordsAsFailure(new IOException("late")))
                .isTrue();
        assertThat(permit.onError(new IllegalArgumentException("late"))).isFalse();
        assertThat(b.snapshot().calls()).isEqualTo(1);
        assertThat(b.snapshot().failedCalls()).isZero();
    }
}
