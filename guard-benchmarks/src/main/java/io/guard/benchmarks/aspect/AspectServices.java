package io.guard.benchmarks.aspect;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;

/**
 * The beans the aspect benchmark calls: the same trivial body without annotations, with Guard's annotations, and
 * with Resilience4j's {@code @CircuitBreaker}, so that the measured difference is what each aspect adds.
 */
final class AspectServices {

    private AspectServices() {
    }

    static long work(long x) {
        return x * 31 + 7;
    }

    /** No annotation: a plain bean, no proxy. */
    public static class Plain {
        public long call(long x) {
            return work(x);
        }
    }

    /** Guard's annotations; the limit never refuses (TOKEN_BUCKET keeps O(1) state per key). */
    public static class Guarded {
        @CircuitBreaker(name = "bench")
        public long breaker(long x) {
            return work(x);
        }

        @RateLimit(name = "bench-global", rate = 1_000_000_000_000L, interval = "1s", algorithm = "TOKEN_BUCKET")
        public long rateLimit(long x) {
            return work(x);
        }

        @RateLimit(name = "bench-user", key = "#user", rate = 1_000_000_000_000L, interval = "1s",
                algorithm = "TOKEN_BUCKET")
        @CircuitBreaker(name = "bench-both")
        public long both(String user, long x) {
            return work(x);
        }
    }

    /** Resilience4j's Spring Boot aspect with its default breaker configuration. */
    public static class Resilience4j {
        @io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker(name = "bench")
        public long breaker(long x) {
            return work(x);
        }
    }
}
