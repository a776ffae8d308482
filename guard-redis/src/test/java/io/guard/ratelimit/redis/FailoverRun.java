package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.test.redis.DedicatedRedis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One failover under load, read from the call log: the sync point ({@code syncAt}: every admission answered before
 * it was on the replica), when the fault came ({@code faultAt}), when the deployment had switched
 * ({@code switchedAt}), when decisions first landed on the new primary ({@code landedAt}), and the spends: admitted
 * by callers, admitted before the sync point, held by the new primary afterwards. Failures and latencies are counted
 * from the sync point on, after the warm-up.
 */
record FailoverRun(String deployment, String fault, String client, List<DecisionLoad.Call> calls, long syncAt,
                   long faultAt, long switchedAt, long landedAt, long admittedAtSync, long held) {

    /** Bound on the harness's own waits in these tests. */
    static final Duration WAIT = Duration.ofSeconds(30);

    long admitted() {
        return calls.stream().filter(DecisionLoad.Call::admitted).count();
    }

    long failed() {
        return measured().filter(call -> call.error() != null).count();
    }

    private java.util.stream.Stream<DecisionLoad.Call> measured() {
        return calls.stream().filter(call -> call.start() >= syncAt);
    }

    /** Admitted by callers but not held by the new primary (negative: spends held whose reply came too late). */
    long lost() {
        return admitted() - held;
    }

    long maxMillis() {
        return measured().mapToLong(DecisionLoad.Call::millis).max().orElse(0);
    }

    /** From the fault to the end of the last failed decision; 0 when none failed. */
    long failingMillis() {
        return measured().filter(call -> call.error() != null).mapToLong(DecisionLoad.Call::end).max()
                .stream().map(end -> TimeUnit.NANOSECONDS.toMillis(end - faultAt)).findFirst().orElse(0);
    }

    void print() {
        System.out.printf("FAILOVER | %s | %s | %s | switched %d ms after the fault | on the new primary %d ms after "
                        + "the fault | %d of %d decisions failed over, the last %d ms after the fault, slowest %d ms | "
                        + "spends lost %d of %d admitted (%d admitted after the sync point) |%n", deployment, fault,
                client, millis(switchedAt), millis(landedAt), failed(), measured().count(), failingMillis(), maxMillis(),
                lost(), admitted(), admitted() - admittedAtSync);
    }

    void assertEveryDecisionAnsweredInTime(Duration bound) {
        assertThat(measured().toList()).as("decisions").isNotEmpty().allSatisfy(call -> {
            assertThat(call.millis()).as("decision time, ms").isLessThanOrEqualTo(bound.toMillis());
            if (call.error() != null) {
                assertThat(call.error()).as("FAIL_CLOSED answer").isInstanceOf(RateLimiterBackendException.class);
            }
        });
    }

    void assertLandedWithin(Duration bound) {
        assertThat(Duration.ofNanos(landedAt - switchedAt)).as("from the switch to a decision on the new primary")
                .isLessThanOrEqualTo(bound);
    }

    /** Never a reset: the sync point's admissions are all held; what is lost was admitted after it. */
    void assertOnlySpendsAfterTheSyncPointLost() {
        assertThat(held).as("spends held by the new primary").isGreaterThanOrEqualTo(admittedAtSync);
        assertThat(lost()).as("spends lost").isLessThanOrEqualTo(admitted() - admittedAtSync);
    }

    private long millis(long at) {
        return TimeUnit.NANOSECONDS.toMillis(at - faultAt);
    }

    /** After the run, one more decision is admitted and counted on {@code primary}: no restart was needed. */
    static void assertDecidesOnAfterwards(GuardOnRedis guard, DedicatedRedis primary, RateLimitPolicy counter) {
        await("one more decision counted on " + primary, () -> {
            long before = guard.spends(primary, counter, "k");
            return guard.registry().tryAcquire(counter.name(), "k", 1).allowed()
                    && guard.spends(primary, counter, "k") > before;
        });
    }

    /** 2 per hour, FAIL_CLOSED, one fixed window. */
    static RateLimitPolicy twoPerHour(String name) {
        return new RateLimitPolicy(name, Algorithm.FIXED_WINDOW, 2, Duration.ofHours(1), 0, Scope.GLOBAL,
                TimeSource.SERVER, BackendFailurePolicy.FAIL_CLOSED);
    }

    /**
     * A first admission straight from the Redis backend (connected, scripts loaded, replicas acknowledging), before
     * the breaker in front of it sees a call: a slow start on a busy machine does not open it, and a failure to
     * start shows its own cause.
     */
    static void awaitWarmUp(GuardOnRedis guard, RateLimitPolicy policy) {
        // A key of its own per attempt: an attempt that failed after its spend was written (too few replicas
        // acknowledged it in time) still used up quota, and with a small rate a shared key would soon only refuse.
        AtomicInteger attempt = new AtomicInteger();
        await("a first admission by Redis", () -> {
            try {
                return guard.redis().decide(policy, "warm-up-" + attempt.incrementAndGet(), 1).toCompletableFuture()
                        .get(5, TimeUnit.SECONDS).decision().allowed();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    static void awaitAdmissions(DecisionLoad load, long count) {
        await(count + " admissions", () -> load.admitted() >= count);
    }

    static void awaitAdmissionsSince(DecisionLoad load, long nanos) {
        await("an admission after " + nanos, () -> load.admittedSince(nanos));
    }

    /**
     * Polls {@code primary} until the limit's spends there grow (a decision landed on it) and returns when; fails
     * after {@code bound}.
     */
    static long awaitSpendsGrow(GuardOnRedis guard, DedicatedRedis primary, RateLimitPolicy counter,
                                DecisionLoad load, Duration bound) {
        long base = guard.spends(primary, counter, "k");
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (guard.spends(primary, counter, "k") > base) {
                return System.nanoTime();
            }
            pause();
        }
        throw new AssertionError("no decision landed on the new primary " + primary + " within " + bound + " ("
                + load.admitted() + " admitted so far)");
    }

    /** Polls {@code condition} (exceptions count as false) until it holds; fails after {@link #WAIT}. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() - deadline < 0) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            pause();
        }
        throw new AssertionError("waited " + WAIT + " for " + what, last);
    }

    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
