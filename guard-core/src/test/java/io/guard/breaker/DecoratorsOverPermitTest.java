package io.guard.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;

import static io.guard.breaker.CircuitBreakerDecorators.executeCallable;
import static io.guard.breaker.CircuitBreakerDecorators.executeRunnable;
import static io.guard.breaker.CircuitBreakerDecorators.executeSupplier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The decorators are helpers over the permit protocol: for a {@link CircuitBreaker} that is not Guard's own (here a
 * proxy in front of one), they record through {@link CircuitBreaker#acquire()} and the permit what the fast paths
 * record for Guard's breakers; the handle-less permission API, which has no such protocol to stand on, says it
 * cannot serve that breaker.
 */
class DecoratorsOverPermitTest {

    private final TestBreakers t = new TestBreakers();

    @Test
    void recordsResultsErrorsAndPlainSuccessesThroughThePermit() throws Exception {
        CircuitBreaker real = t.breaker(CircuitBreakerConfig.builder()
                .slidingWindowSize(10).minimumNumberOfCalls(10)
                .recordResult(result -> result == null)
                .ignoreExceptions(List.of(IllegalArgumentException.class))
                .build());
        CircuitBreaker foreign = inFrontOf(real);

        assertThat(executeSupplier(foreign, () -> "ok")).isEqualTo("ok");
        assertThat(executeSupplier(foreign, () -> (String) null)).isNull(); // a failure by the result predicate
        executeRunnable(foreign, () -> { }); // a plain success: the result predicate is not asked
        assertThatThrownBy(() -> executeCallable(foreign, () -> {
            throw new IOException("down");
        })).isInstanceOf(IOException.class).hasMessage("down");
        assertThatThrownBy(() -> executeRunnable(foreign, () -> {
            throw new IllegalArgumentException("caller's fault");
        })).isInstanceOf(IllegalArgumentException.class);

        assertThat(real.snapshot().calls()).isEqualTo(4);
        assertThat(real.snapshot().failedCalls()).isEqualTo(2);
    }

    @Test
    void aRefusedCallIsNeverMade() {
        CircuitBreaker real = t.breaker(CircuitBreakerConfig.ofDefaults());
        real.transitionToForcedOpenState();
        boolean[] ran = {false};
        assertThatThrownBy(() -> executeRunnable(inFrontOf(real), () -> ran[0] = true))
                .isInstanceOf(CallNotPermittedException.class);
        assertThat(ran[0]).isFalse();
        assertThat(real.notPermittedCalls()).isEqualTo(1);
    }

    @Test
    void thePermissionApiNamesABreakerItCannotServe() {
        CircuitBreaker foreign = inFrontOf(t.breaker(CircuitBreakerConfig.ofDefaults()));
        assertThatThrownBy(() -> CircuitBreakerPermissions.of(foreign))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("circuit breaker 'test'")
                .hasMessageContaining(foreign.getClass().getName())
                .hasMessageContaining("tryAcquire()");
    }

    /** A breaker that is not a Guard class: every method forwarded to {@code real}. */
    private static CircuitBreaker inFrontOf(CircuitBreaker real) {
        InvocationHandler forward = (proxy, method, args) -> {
            try {
                return method.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (CircuitBreaker) Proxy.newProxyInstance(CircuitBreaker.class.getClassLoader(),
                new Class<?>[] {CircuitBreaker.class}, forward);
    }
}
