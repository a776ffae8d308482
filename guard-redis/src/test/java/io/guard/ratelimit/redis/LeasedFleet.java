package io.guard.ratelimit.redis;

import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RedissonClients;
import io.guard.ratelimit.lease.LeaseSize;
import io.guard.ratelimit.lease.LeasingRateLimiter;
import io.guard.time.CallbackTimer;
import io.guard.time.GuardClock;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Instances of a service leasing from one Redis: each with a Redisson client of its own (as a process of its own
 * would have), a {@link RedisRateLimiter} and a {@link LeasingRateLimiter} in front of it, every limit leased at one
 * size. Closes them all.
 */
final class LeasedFleet implements AutoCloseable {

    private final String url;
    private final String prefix;
    private final LeaseSize size;
    private final Duration maxLifetime;
    private final CallbackTimer timer = new CallbackTimer("lease-test-timer", "lease-test-expiry", 2);
    private final List<AutoCloseable> opened = new ArrayList<>();
    final List<LeasingRateLimiter> instances = new ArrayList<>();
    final List<RedisRateLimiter> exact = new ArrayList<>();

    private final RedisRateLimiter inspector;

    LeasedFleet(String url, String prefix, LeaseSize size, Duration maxLifetime) {
        this.url = url;
        this.prefix = prefix;
        this.size = size;
        this.maxLifetime = maxLifetime;
        RedissonClient redisson = RedissonClients.create(url);
        opened.add(redisson::shutdown);
        inspector = new RedisRateLimiter(redisson, Clock.systemUTC(), prefix, "inspector");
        opened.add(0, inspector);
    }

    LeasedFleet start(int count) {
        for (int i = 0; i < count; i++) {
            add();
        }
        return this;
    }

    LeasingRateLimiter add() {
        RedissonClient redisson = RedissonClients.create(url);
        RedisRateLimiter redis = new RedisRateLimiter(redisson, Clock.systemUTC(), prefix,
                UUID.randomUUID().toString());
        LeasingRateLimiter leasing = new LeasingRateLimiter(redis, redis.leases(), name -> size, timer,
                GuardClock.system(), maxLifetime, LeasingRateLimiter.DEFAULT_MAX_KEYS);
        opened.add(0, redisson::shutdown);
        opened.add(0, leasing);
        instances.add(leasing);
        exact.add(redis);
        return leasing;
    }

    LeasingRateLimiter get(int i) {
        return instances.get(i);
    }

    /** Scripts sent by every instance so far (batches, each one script run or more). */
    long batchesSent() {
        return exact.stream().mapToLong(RedisRateLimiter::batchesSent).sum();
    }

    /** What Redis holds for the key now, read by an instance that leases nothing. */
    long remaining(RateLimitPolicy policy, String key) {
        return inspector.inspect(policy, key).toCompletableFuture().join().remaining();
    }

    /** Closes instance {@code i} (giving its leases back) ahead of the others. */
    void close(int i) throws Exception {
        LeasingRateLimiter leasing = instances.get(i);
        leasing.close();
        opened.remove(leasing);
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
        timer.close();
    }
}
