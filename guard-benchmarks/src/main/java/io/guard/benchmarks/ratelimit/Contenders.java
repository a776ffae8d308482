package io.guard.benchmarks.ratelimit;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.redisson.Bucket4jRedisson;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.ratelimit.redis.RedissonScriptConnection;
import io.guard.ratelimit.redis.ScriptConnection;
import org.redisson.Redisson;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

/** The contenders, all on the same Redisson client and Redis server, all limiting to {@code rate} per interval. */
final class Contenders {

    /** -Dguard.maxBatch=1 sends every decision alone, as before pipelining. */
    private static final int MAX_BATCH = Integer.getInteger("guard.maxBatch", 64);

    private Contenders() {
    }

    /**
     * Guard's {@link RedisRateLimiter} with one of its algorithms (server time, the defaults), with or without its
     * in-process memory of refusals.
     */
    static Contender guard(RedissonClient redisson, Algorithm algorithm, boolean refusalCache, String run, long rate,
                           Duration interval) {
        return guard(RedissonScriptConnection.of(redisson), algorithm, refusalCache, run, rate, interval);
    }

    /** Like {@link #guard(RedissonClient, Algorithm, boolean, String, long, Duration)} on any client. */
    static Contender guard(ScriptConnection connection, Algorithm algorithm, boolean refusalCache, String run,
                           long rate, Duration interval) {
        RedisRateLimiter limiter = new RedisRateLimiter(connection, Clock.systemUTC(), "bench:", "bench",
                refusalCache ? RedisRateLimiter.DEFAULT_REFUSAL_CACHE_SIZE : 0, MAX_BATCH);
        RateLimitPolicy policy = RateLimitPolicy.of(run + "-guard-" + connection.clientName() + "-"
                + algorithm.name().toLowerCase() + (refusalCache ? "" : "-uncached"), algorithm, rate, interval);
        return new Contender() {
            @Override
            public String name() {
                return "Guard " + algorithm + " on " + connection.clientName()
                        + (refusalCache ? "" : " (no refusal cache)");
            }

            @Override
            public boolean tryAcquire(int index) {
                return limiter.tryAcquire(policy, "user-" + index, 1).allowed();
            }

            @Override
            public List<String> keyPatterns(int index) {
                return List.of("bench:{" + policy.name() + ":user-" + index + "}:*");
            }
        };
    }

    /** Redisson's {@link RRateLimiter} (OVERALL), one per key as its users create them. */
    static Contender redisson(RedissonClient redisson, String run, long rate, Duration interval, int keys) {
        RRateLimiter[] limiters = new RRateLimiter[keys];
        return new Contender() {
            @Override
            public String name() {
                return "Redisson RRateLimiter";
            }

            @Override
            public void prepare(int index) {
                limiters[index] = redisson.getRateLimiter(run + "-redisson-user-" + index);
                limiters[index].trySetRate(RateType.OVERALL, rate, interval);
            }

            @Override
            public boolean tryAcquire(int index) {
                return limiters[index].tryAcquire();
            }

            @Override
            public List<String> keyPatterns(int index) {
                String name = run + "-redisson-user-" + index;
                return List.of(name, "{" + name + "}:*");
            }
        };
    }

    /** Bucket4j on Redisson (its compare-and-swap proxy manager): greedy refill of {@code rate} per interval. */
    static Contender bucket4j(RedissonClient redisson, String run, long rate, Duration interval) {
        ProxyManager<String> buckets = Bucket4jRedisson.casBasedBuilder(((Redisson) redisson).getCommandExecutor())
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(interval))
                .build();
        BucketConfiguration configuration = BucketConfiguration.builder()
                .addLimit(Bandwidth.builder().capacity(rate).refillGreedy(rate, interval).build())
                .build();
        return new Contender() {
            @Override
            public String name() {
                return "Bucket4j (Redisson)";
            }

            @Override
            public boolean tryAcquire(int index) {
                return buckets.builder().build(key(index), () -> configuration).tryConsume(1);
            }

            @Override
            public List<String> keyPatterns(int index) {
                return List.of(key(index));
            }

            private String key(int index) {
                return run + "-bucket4j-user-" + index;
            }
        };
    }
}
