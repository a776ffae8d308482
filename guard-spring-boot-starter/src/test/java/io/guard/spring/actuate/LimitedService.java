package io.guard.spring.actuate;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.ratelimit.RateLimitExceededException;

/**
 * Rate-limited methods of the test application, one limiter per test class so that tests sharing a server keep
 * exact counts. Each allows 3 calls a minute: a test's fourth call is refused.
 */
public class LimitedService {

    @RateLimit(name = "orders", rate = 3, interval = "1m")
    public String orders() {
        return "ok";
    }

    @RateLimit(name = "limit-events", rate = 3, interval = "1m")
    public String events() {
        return "ok";
    }

    @RateLimit(name = "limit-metered", rate = 3, interval = "1m")
    public String metered() {
        return "ok";
    }

    @RateLimit(name = "limit-streamed", rate = 3, interval = "1m")
    public String streamed() {
        return "ok";
    }

    /** Limited per user: a refused user is remembered by the Redis backend, another user still reaches Redis. */
    @RateLimit(name = "limit-redis", key = "#user", rate = 3, interval = "1m")
    public String redis(String user) {
        return "ok";
    }

    /** Limited per user for an hour: only a reset gives a refused user permits back within a test. */
    @RateLimit(name = "limit-quota", key = "#user", rate = 3, interval = "1h")
    public String quota(String user) {
        return "ok";
    }

    /** Calls {@code call} {@code times} times and returns how many were refused by the limit. */
    static int rejections(Runnable call, int times) {
        int rejected = 0;
        for (int i = 0; i < times; i++) {
            try {
                call.run();
            }
            catch (RateLimitExceededException ex) {
                rejected++;
            }
        }
        return rejected;
    }
}
