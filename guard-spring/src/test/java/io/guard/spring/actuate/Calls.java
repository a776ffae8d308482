package io.guard.spring.actuate;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerDecorators;

/** Scripted calls through a breaker, the way the aspect makes them, for tests that need known counts. */
final class Calls {

    private Calls() {
    }

    static void succeed(CircuitBreaker breaker, int times) {
        for (int i = 0; i < times; i++) {
            CircuitBreakerDecorators.executeSupplier(breaker, () -> "ok");
        }
    }

    /** Calls that throw {@link IllegalStateException}: recorded as failures. */
    static void fail(CircuitBreaker breaker, int times) {
        run(breaker, times, new IllegalStateException("downstream down"));
    }

    /** Calls that throw {@link IllegalArgumentException}: ignored by the test application's configuration. */
    static void failIgnored(CircuitBreaker breaker, int times) {
        run(breaker, times, new IllegalArgumentException("bad input"));
    }

    /** Calls into an open breaker; each must be refused. */
    static void refused(CircuitBreaker breaker, int times) {
        for (int i = 0; i < times; i++) {
            try {
                CircuitBreakerDecorators.executeSupplier(breaker, () -> "never");
                throw new AssertionError("breaker '" + breaker.name() + "' admitted a call in " + breaker.state());
            }
            catch (CallNotPermittedException expected) {
                // Counted as not permitted.
            }
        }
    }

    private static void run(CircuitBreaker breaker, int times, RuntimeException error) {
        for (int i = 0; i < times; i++) {
            try {
                CircuitBreakerDecorators.executeSupplier(breaker, () -> {
                    throw error;
                });
            }
            catch (RuntimeException expected) {
                if (expected != error) {
                    throw expected;
                }
            }
        }
    }
}
