package io.guard.reliability;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.event.GuardEvent;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.RedissonClients;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis fails while six threads keep calling three limits (FAIL_OPEN, FAIL_CLOSED, LOCAL): the server is killed and
 * started again, frozen ({@code DEBUG SLEEP}, so calls really time out), and loses its scripts and data
 * ({@code SCRIPT FLUSH}, {@code FLUSHALL}). Every call is logged with its outcome and time, and checked against what
 * its failure policy promises; the backend's breaker must keep the outage from costing one Redis attempt per call.
 */
class RedisOutageUnderLoadIT {

    private static final int THREADS = 6;
    private static final int TIMEOUT_MILLIS = 250;
    private static final Duration OPEN_WAIT = Duration.ofMillis(300);
    private static final long LOCAL_RATE = 5;
    private static final Duration LOCAL_INTERVAL = Duration.ofSeconds(1);

    private final DedicatedRedis server = RedisServers.startDedicated("--enable-debug-command", "yes");
    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    private CircuitBreaker breaker = breakers.circuitBreaker("rate-limit-backend",
            FailoverRateLimiter.recommendedBreakerConfig().toBuilder().waitDurationInOpenState(OPEN_WAIT).build());
    private RedissonClient client;
    private CountingRateLimiter redis;
    private CountingRateLimiter local;
    private FailoverRateLimiter failover;
    private RateLimiterRegistry registry;

    /** One call: which limit, when it started and ended (nanoTime), and what it answered. */
    private record Call(String limit, long start, long end, Decision decision, Throwable error) {
    }

    /** Redis behind the failover decorator, with a client that gives up after {@code timeoutMillis}. */
    private void connect(int timeoutMillis) {
        client = RedissonClients.create(server.url(), timeoutMillis);
        redis = new CountingRateLimiter(new RedisRateLimiter(client, Clock.systemUTC(), "guard:", "outage"),
                Clock.systemUTC());
        local = new CountingRateLimiter(new LocalRateLimiter(Clock.systemUTC()), Clock.systemUTC());
        failover = new FailoverRateLimiter(redis, local, breaker, Clock.systemUTC());
        registry = new RateLimiterRegistry(failover, Clock.systemUTC(), 50);
        registry.register(new RateLimitPolicy("open", Algorithm.SLIDING_LOG, 1_000_000, Duration.ofSeconds(1), 0,
                Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_OPEN));
        registry.register(new RateLimitPolicy("closed", Algorithm.TOKEN_BUCKET, 1_000_000, Duration.ofSeconds(1), 0,
                Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED));
        registry.register(new RateLimitPolicy("local", Algorithm.SLIDING_LOG, LOCAL_RATE, LOCAL_INTERVAL, 0,
                Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.LOCAL));
    }

    @AfterEach
    void close() {
        if (registry != null) {
            registry.close();
            failover.close();
            client.shutdown();
        }
        breakers.close();
        server.close();
    }

    @Test
    void killedAndRestartedEachPolicyKeepsItsPromiseAndTheBreakerSparesRedis() throws Exception {
        connect(TIMEOUT_MILLIS);
        Load load = Load.start(registry);
        pause(800);
        // Counted from the moment the process is gone: while it shuts down, Redis still answers.
        server.stop();
        long outageStart = System.nanoTime();
        long attemptsBefore = redis.attempts();
        pause(2_000);
        long attemptsInOutage = redis.attempts() - attemptsBefore;
        long outageEnd = System.nanoTime();
        server.start();
        long restarted = System.nanoTime();
        long successesAtRestart = redis.successes();
        long deadline = restarted + TimeUnit.SECONDS.toNanos(15);
        while (redis.successes() == successesAtRestart && System.nanoTime() < deadline) {
            pause(20);
        }
        long backAfterMillis = TimeUnit.NANOSECONDS.toMillis(redis.lastSuccessNanos() - restarted);
        // Connections that died with the old process fail once each, which may open the breaker once more.
        while (breaker.state() != State.CLOSED && System.nanoTime() < deadline) {
            pause(20);
        }
        State afterRestart = breaker.state();
        List<Call> calls = load.stop();

        List<Call> inOutage = calls.stream().filter(c -> c.start() > outageStart && c.end() < outageEnd).toList();
        long openCalls = count(inOutage, "open");
        System.out.printf("outage (kill): %d calls in %d ms of outage, %d reached Redis; Redis used again %d ms after "
                        + "restart; stats open=%s closed=%s local=%s%n", inOutage.size(),
                TimeUnit.NANOSECONDS.toMillis(outageEnd - outageStart), attemptsInOutage, backAfterMillis,
                registry.stats("open"), registry.stats("closed"), registry.stats("local"));

        assertThat(calls).as("FAIL_OPEN and LOCAL never fail").filteredOn(c -> !c.limit().equals("closed"))
                .allSatisfy(c -> assertThat(c.error()).isNull());
        assertThat(inOutage).filteredOn(c -> c.limit().equals("open"))
                .allSatisfy(c -> assertThat(c.decision().allowed()).isTrue());
        assertThat(registry.stats("open").errors()).as("the outage is counted for FAIL_OPEN")
                .isGreaterThanOrEqualTo(openCalls).isPositive();
        assertThat(inOutage).filteredOn(c -> c.limit().equals("closed")).isNotEmpty()
                .allSatisfy(c -> assertThat(c.error()).isInstanceOf(RateLimiterBackendException.class));
        assertLocalPolicyHeld();

        // Without the breaker every call would try Redis; with it, a handful before it opens plus one probe per wait,
        // however many calls come in (thousands on an idle machine).
        long bound = 10 + THREADS + (TimeUnit.NANOSECONDS.toMillis(outageEnd - outageStart) / OPEN_WAIT.toMillis()) + 2;
        assertThat(attemptsInOutage).as("Redis attempts during the outage, out of %d calls", inOutage.size())
                .isLessThanOrEqualTo(bound);
        assertThat(backAfterMillis).as("Redis decides again soon after it is back").isLessThan(10_000);
        assertThat(afterRestart).as("the backend breaker once Redis is back").isEqualTo(State.CLOSED);
    }

    @Test
    void aFrozenRedisCostsAFewTimeoutsNotOnePerCall() throws Exception {
        connect(TIMEOUT_MILLIS);
        Load load = Load.start(registry);
        pause(500);
        long failuresBefore = redis.failures();
        AtomicReference<Throwable> freezeError = new AtomicReference<>();
        Thread freezer = new Thread(() -> {
            try {
                server.endpoint("guard:").call("DEBUG", "SLEEP", "1.5");
            } catch (Throwable e) {
                freezeError.set(e);
            }
        }, "freezer");
        long freezeStart = System.nanoTime();
        freezer.start();
        freezer.join(10_000);
        long freezeEnd = System.nanoTime();
        assertThat(freezeError.get()).as("DEBUG SLEEP").isNull();
        assertThat(Duration.ofNanos(freezeEnd - freezeStart)).as("the freeze").isGreaterThan(Duration.ofMillis(1400));
        // Failed attempts only: once Redis wakes up, the breaker closes and calls reach it again, as they should.
        long attemptsInFreeze = redis.failures() - failuresBefore;
        pause(1_000);
        List<Call> calls = load.stop();

        List<Call> inFreeze = calls.stream().filter(c -> c.start() > freezeStart && c.end() < freezeEnd).toList();
        long slow = inFreeze.stream().filter(c -> c.end() - c.start() >= TimeUnit.MILLISECONDS.toNanos(200)).count();
        System.out.printf("outage (DEBUG SLEEP 1.5): %d calls during the freeze, %d failed at Redis, %d took >= 200 "
                + "ms%n", inFreeze.size(), attemptsInFreeze, slow);
        assertThat(calls).filteredOn(c -> !c.limit().equals("closed"))
                .allSatisfy(c -> assertThat(c.error()).isNull());
        long bound = 10 + THREADS + TimeUnit.NANOSECONDS.toMillis(freezeEnd - freezeStart) / OPEN_WAIT.toMillis() + 2;
        assertThat(attemptsInFreeze).as("failed Redis attempts during the freeze").isLessThanOrEqualTo(bound);
        assertThat(slow).as("calls that waited for a timeout").isLessThanOrEqualTo(bound);
        assertLocalPolicyHeld();
    }

    @Test
    void scriptFlushAndFlushAllMidRunCostNoFailedCall() throws Exception {
        // A patient client: this test is about lost scripts and data, not about a slow machine's timeouts.
        // Nor about slow calls: a loaded machine can make some take a second, which would open the breaker.
        breaker = breakers.circuitBreaker("patient-backend", FailoverRateLimiter.recommendedBreakerConfig().toBuilder()
                .slowCallDurationThreshold(Duration.ofMinutes(1)).build());
        breaker.addListener(event -> {
            if (event.type() != GuardEvent.Type.SUCCESS) {
                System.out.println("backend breaker: " + event.type() + " " + event.details());
            }
        });
        connect(5_000);
        Load load = Load.start(registry);
        pause(500);
        server.endpoint("guard:").call("SCRIPT", "FLUSH");
        pause(500);
        server.endpoint("guard:").call("FLUSHALL");
        pause(500);
        List<Call> calls = load.stop();

        System.out.printf("SCRIPT FLUSH + FLUSHALL: %d calls, Redis attempts %d, successes %d, breaker %s%n",
                calls.size(), redis.attempts(), redis.successes(), breaker.state());
        assertThat(calls).allSatisfy(c -> assertThat(c.error()).isNull());
        assertThat(redis.attempts()).as("every call was decided by Redis").isEqualTo(calls.size())
                .isEqualTo(redis.successes());
        assertThat(registry.stats("open").errors() + registry.stats("closed").errors()
                + registry.stats("local").errors()).isZero();
    }

    /**
     * Decisions the in-process limiter took while Redis was away (only the LOCAL limit goes there): never more than
     * the rate in any interval. A decision happens between the call to the local limiter and its answer, so every
     * admission whose whole call lies within one interval-long window was decided inside it; those may not exceed
     * the rate (sound however long a thread was descheduled). Redis's own decisions for the same limit, before and
     * after the outage, are a separate quota and are not counted here.
     */
    private void assertLocalPolicyHeld() {
        List<long[]> admitted = local.admissions();
        admitted.sort(java.util.Comparator.comparingLong(a -> a[0]));
        long interval = TimeUnit.MICROSECONDS.convert(LOCAL_INTERVAL);
        for (long[] first : admitted) {
            long inside = admitted.stream().filter(a -> a[0] >= first[0] && a[1] < first[0] + interval).count();
            assertThat(inside).as("LOCAL admissions decided within %s of %d", LOCAL_INTERVAL, first[0])
                    .isLessThanOrEqualTo(LOCAL_RATE);
        }
        assertThat(admitted).as("admissions decided in process during the outage").isNotEmpty();
    }

    private static long count(List<Call> calls, String limit) {
        return calls.stream().filter(c -> c.limit().equals(limit)).count();
    }

    private static void pause(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }

    /** Threads that call the three limits in turn until stopped, logging every call. */
    private static final class Load {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
        private final CountDownLatch done = new CountDownLatch(THREADS);
        private final List<Throwable> crashes = new ArrayList<>();

        static Load start(RateLimiterRegistry registry) {
            Load load = new Load();
            String[] limits = {"open", "closed", "local"};
            for (int t = 0; t < THREADS; t++) {
                int offset = t;
                Thread thread = new Thread(() -> {
                    try {
                        for (int i = offset; load.running.get(); i++) {
                            String limit = limits[i % limits.length];
                            long start = System.nanoTime();
                            try {
                                Decision decision = registry.tryAcquire(limit, "k", 1);
                                load.calls.add(new Call(limit, start, System.nanoTime(), decision, null));
                            } catch (RuntimeException e) {
                                load.calls.add(new Call(limit, start, System.nanoTime(), null, e));
                            }
                        }
                    } catch (Throwable e) {
                        synchronized (load.crashes) {
                            load.crashes.add(e);
                        }
                    } finally {
                        load.done.countDown();
                    }
                }, "load-" + t);
                thread.start();
            }
            return load;
        }

        List<Call> stop() throws InterruptedException {
            running.set(false);
            assertThat(done.await(30, TimeUnit.SECONDS)).as("load threads stop").isTrue();
            assertThat(crashes).isEmpty();
            return new ArrayList<>(calls);
        }
    }
}
