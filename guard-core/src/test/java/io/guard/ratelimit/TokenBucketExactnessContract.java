package io.guard.ratelimit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TOKEN_BUCKET against {@link ExactGcra} on a frozen, hand-moved clock: rates from 1 per hour to 10^9 per second,
 * bursts from 1 to 10^6, every decision (allowed, remaining, retryAfter, resetAfter) equal to the microsecond. A
 * backend passes by extending this class. Seeded, so a failure names a case that repeats.
 */
public abstract class TokenBucketExactnessContract {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final long SEED = 20261201L;

    private MutableClock clock;
    private RateLimiter limiter;

    /** A backend on {@code clock} (CLIENT time) that asks its store on every call (no remembered refusals). */
    protected abstract RateLimiter create(Clock clock);

    /** Random policies to try; each makes {@link #steps()} decisions. */
    protected abstract int cases();

    protected abstract int steps();

    @BeforeEach
    void createLimiter() {
        clock = new MutableClock(T0);
        limiter = create(clock);
    }

    @AfterEach
    void closeLimiter() {
        limiter.close();
    }

    private static RateLimitPolicy bucket(String name, long rate, Duration interval, long burst) {
        return new RateLimitPolicy(name, Algorithm.TOKEN_BUCKET, rate, interval, burst, Scope.GLOBAL,
                TimeSource.CLIENT, BackendFailurePolicy.FAIL_CLOSED);
    }

    @ParameterizedTest(name = "{0} per {1} ms, burst {2}")
    @CsvSource({"3000000, 1000, 3000", "10000000, 1000, 10", "300000, 1000, 300", "1500000, 1000, 1500",
            "1000000000, 1000, 1000000", "3, 1000, 3", "1, 3600000, 1"})
    void aFrozenClockAdmitsExactlyTheBurst(long rate, long intervalMillis, long burst) {
        RateLimitPolicy policy = bucket("frozen-" + rate + "-" + burst, rate, Duration.ofMillis(intervalMillis), burst);
        long attempts = Math.min(burst, 2_000) + 50;
        long admitted = 0;
        for (int i = 0; i < attempts; i++) {
            if (limiter.tryAcquire(policy, "k", 1).allowed()) {
                admitted++;
            }
        }
        assertThat(admitted).isEqualTo(Math.min(burst, attempts));
    }

    @Test
    void everyDecisionMatchesTheExactModel() {
        Random random = new Random(SEED);
        for (int c = 0; c < cases(); c++) {
            RateLimitPolicy policy = randomPolicy(random, "exact-" + c);
            ExactGcra model = new ExactGcra(policy);
            long now = Math.abs(random.nextLong() % 1_000_000_000_000L);
            Decision last = null;
            List<String> history = new ArrayList<>();
            for (int s = 0; s < steps(); s++) {
                now += advance(random, policy, last);
                long permits = permits(random, policy.burst());
                clock.set(T0.plusNanos(now * 1000));
                Decision actual = limiter.tryAcquire(policy, "k", permits);
                Decision expected = model.decide(T0.getEpochSecond() * 1_000_000 + now, permits);
                history.add("at " + now + " us take " + permits);
                assertThat(actual).as("%s, rate %d per %s, burst %d, after %s", policy.name(), policy.rate(),
                        policy.interval(), policy.burst(), history).isEqualTo(expected);
                last = actual;
            }
        }
    }

    /** A rate from 1 per hour to 10^9 per second, log-uniform, over intervals from 1 ms to 1 h; a burst to 10^6. */
    private static RateLimitPolicy randomPolicy(Random random, String name) {
        long[] intervals = {1, 7, 1_000, 1_001, 60_000, 90_000, 3_600_000, 1 + random.nextInt(3_600_000)};
        long intervalMillis = intervals[random.nextInt(intervals.length)];
        double perSecond = Math.pow(10, -Math.log10(3600) + random.nextDouble() * (9 + Math.log10(3600)));
        long rate = Math.max(1, Math.round(perSecond * intervalMillis / 1000.0));
        rate = Math.min(rate, 1_000_000L * intervalMillis);
        if (rate * 3_600_000.0 < intervalMillis) {
            rate = 1;
        }
        long burst = random.nextInt(4) == 0 ? rate : Math.max(1, Math.round(Math.pow(10, random.nextDouble() * 6)));
        return bucket(name, rate, Duration.ofMillis(intervalMillis), Math.min(burst, 1_000_000));
    }

    /** Mostly no time at all (a burst), else fractions and multiples of an emission interval, or the last wait. */
    private static long advance(Random random, RateLimitPolicy policy, Decision last) {
        double emissionMicros = policy.interval().toNanos() / 1000.0 / policy.rate();
        return switch (random.nextInt(8)) {
            case 0, 1, 2 -> 0;
            case 3 -> (long) (random.nextDouble() * 3 * emissionMicros);
            case 4 -> (long) (random.nextInt(5) * emissionMicros) + random.nextInt(3);
            case 5 -> last == null || last.allowed() ? 1 : last.retryAfter().toNanos() / 1000 - random.nextInt(2);
            case 6 -> (long) (random.nextDouble() * policy.burst() * emissionMicros);
            default -> random.nextInt(1_000);
        };
    }

    private static long permits(Random random, long burst) {
        return switch (random.nextInt(4)) {
            case 0, 1 -> 1;
            case 2 -> 1 + (long) (random.nextDouble() * burst);
            default -> Math.max(1, burst - random.nextInt(3));
        };
    }
}
