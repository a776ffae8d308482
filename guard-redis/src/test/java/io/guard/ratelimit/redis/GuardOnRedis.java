package io.guard.ratelimit.redis;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.test.redis.DedicatedRedis;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

/**
 * Guard as the starter assembles it, on one script connection: {@link RedisRateLimiter} behind
 * {@link FailoverRateLimiter} with the recommended backend breaker for {@code timeout} (what
 * {@code guard.rate-limit.redis.timeout} sets), and a registry in front.
 */
final class GuardOnRedis implements AutoCloseable {

    static final String PREFIX = "guard:";

    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    private final RedisRateLimiter redis;
    private final FailoverRateLimiter failover;
    private final RateLimiterRegistry registry;

    GuardOnRedis(ScriptConnection connection, Duration timeout) {
        CircuitBreaker breaker = breakers.circuitBreaker("guard-rate-limit-backend",
                FailoverRateLimiter.recommendedBreakerConfig(timeout));
        redis = new RedisRateLimiter(connection, Clock.systemUTC(), PREFIX, UUID.randomUUID().toString(),
                RedisRateLimiter.DEFAULT_REFUSAL_CACHE_SIZE, Pipeline.DEFAULT_MAX_BATCH);
        failover = new FailoverRateLimiter(redis, new LocalRateLimiter(Clock.systemUTC()), breaker, Clock.systemUTC());
        registry = new RateLimiterRegistry(failover, Clock.systemUTC(), 50);
    }

    /**
     * A FAIL_CLOSED counter that never refuses by quota (2^40 per 10 years, one fixed window): every admission is
     * a spend Redis records, and {@link #spends} reads how many a node holds.
     */
    static RateLimitPolicy counter(String name) {
        return new RateLimitPolicy(name, Algorithm.FIXED_WINDOW, 1L << 40, Duration.ofDays(3_650), 0, Scope.GLOBAL,
                TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);
    }

    RateLimitPolicy register(RateLimitPolicy policy) {
        return registry.register(policy);
    }

    RateLimiterRegistry registry() {
        return registry;
    }

    RedisRateLimiter redis() {
        return redis;
    }

    /** The permits a FIXED_WINDOW limit's window holds on {@code node}: the spends that node knows of. */
    long spends(DedicatedRedis node, RateLimitPolicy policy, String key) {
        String window = redis.keys(policy, key).get(0);
        Object count = node.endpoint(PREFIX).call("HGET", window, "c");
        return count == null ? 0 : Long.parseLong(count.toString());
    }

    @Override
    public void close() {
        registry.close();
        failover.close();
        breakers.close();
    }
}
