package io.guard.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The question the aspects ask before running a fallback: the same verdict as onError, and nothing recorded. */
class RecordsAsFailureTest {

    private final TestBreakers t = new TestBreakers();

    @Test
    void everyThrowableIsAFailureWhenNothingIsConfigured() {
        CircuitBreaker b = t.breaker(CircuitBreakerConfig.ofDefaults());
        CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(b);
        assertThat(permissions.recordsAsFailure(new IllegalStateException())).isTrue();
        assertThat(permissions.recordsAsFailure(new OutOfMemoryError())).isTrue();
        assertThat(b.snapshot().calls()).isZero();
    }

    @Test
    void ignoreWinsAndUnlistedExceptionsAreNotFailures() {
        CircuitBreaker b = t.breaker(CircuitBreakerConfig.builder()
                .recordExceptions(List.of(IOException.class, UncheckedIOException.class))
                .ignoreExceptions(List.of(UncheckedIOException.class))
                .build());
        CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(b);
        assertThat(permissions.recordsAsFailure(new IOException())).isTrue();
        assertThat(permissions.recordsAsFailure(new UncheckedIOException(new IOException()))).isFalse();
        assertThat(permissions.recordsAsFailure(new IllegalArgumentException())).isFalse();
    }

    @Test
    void aThrowingPredicateGetsItsDocumentedAnswer() {
        CircuitBreaker b = t.breaker(CircuitBreakerConfig.builder()
                .recordException(e -> { throw new IllegalStateException("buggy predicate"); })
                .build());
        assertThat(CircuitBreakerPermissions.of(b).recordsAsFailure(new IllegalArgumentException())).isTrue();
    }
}
