package io.guard.benchmarks.reliability;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.ratelimit.redis.RedisRateLimiter;
import io.guard.ratelimit.redis.ScriptConnection;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What a Redis outage costs one limited request, with the Redis client at its default settings: Redisson's
 * ({@code timeout} 3 s, {@code retryAttempts} and {@code retryInterval} 1.5 s; a lazy client as Guard makes it) and
 * Lettuce's with Spring Data's command timeout (60 s). For each client and fault (Redis refusing connections after
 * it was used, hung by {@code CLIENT PAUSE} after it was used, down from the start) it calls a FAIL_OPEN limit one
 * call after another and prints the latency of each call until the backend breaker opens, of calls while it is open,
 * and of the trial calls after each 2 s wait.
 *
 * <p>{@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.reliability.OutageLatency
 * [guard.rate-limit.redis.timeout in ms, default 250]}
 */
public final class OutageLatency {

    private static final int CALLS_WHILE_OPEN = 200;
    private static final int TRIALS = 3;

    private OutageLatency() {
    }

    public static void main(String[] args) throws Exception {
        Duration timeout = Duration.ofMillis(args.length > 0 ? Long.parseLong(args[0]) : 250);
        System.out.printf("guard.rate-limit.redis.timeout = %d ms%n", timeout.toMillis());
        System.out.println("| client | Redis | each call until the breaker opened (ms) | while open: median / max (ms) "
                + "| trial calls (ms) |");
        System.out.println("|---|---|---|---|---|");
        for (String client : new String[] {"redisson", "lettuce"}) {
            for (String fault : new String[] {"refusing", "hung", "down at start"}) {
                System.out.println(run(client, fault, timeout));
            }
        }
        System.exit(0); // clients left waiting on a paused server keep non-daemon threads
    }

    private static String run(String client, String fault, Duration timeout) throws Exception {
        try (DedicatedRedis server = RedisServers.startDedicated()) {
            if (fault.equals("down at start")) {
                server.stop();
            }
            RedisClients clients = RedisClients.open(client, server.url());
            ScriptConnection connection = clients.connection();
            CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
            CircuitBreaker breaker = breakers.circuitBreaker("guard-rate-limit-backend",
                    FailoverRateLimiter.recommendedBreakerConfig(timeout));
            FailoverRateLimiter backend = new FailoverRateLimiter(
                    new RedisRateLimiter(connection, Clock.systemUTC(), "outage:", "outage", 0, 64),
                    new LocalRateLimiter(Clock.systemUTC()), breaker, Clock.systemUTC());
            RateLimiterRegistry limits = new RateLimiterRegistry(backend, Clock.systemUTC(), 100);
            limits.register(RateLimitPolicy.of("browse", Algorithm.SLIDING_LOG, 1_000_000, Duration.ofSeconds(1)));
            if (!fault.equals("down at start")) {
                warmUp(limits, breaker);
                if (fault.equals("refusing")) {
                    server.stop();
                } else {
                    server.endpoint("").call("CLIENT", "PAUSE", "120000", "ALL");
                }
            }
            List<Long> untilOpen = new ArrayList<>();
            while (breaker.state() != State.OPEN && untilOpen.size() < 50) {
                untilOpen.add(millisOf(() -> limits.tryAcquire("browse", "k", 1)));
            }
            long[] open = new long[CALLS_WHILE_OPEN];
            for (int i = 0; i < open.length; i++) {
                open[i] = microsOf(() -> limits.tryAcquire("browse", "k", 1));
            }
            Arrays.sort(open);
            List<Long> trials = new ArrayList<>();
            for (int t = 0; t < TRIALS; t++) {
                TimeUnit.MILLISECONDS.sleep(breaker.remainingOpenTime().toMillis() + 10);
                trials.add(millisOf(() -> limits.tryAcquire("browse", "k", 1)));
            }
            limits.close();
            backend.close();
            breakers.close();
            clients.close();
            return String.format(Locale.ROOT, "| %s | %s | %s | %.2f / %.2f | %s |", client, fault, untilOpen,
                    open[open.length / 2] / 1000.0, open[open.length - 1] / 1000.0, trials);
        }
    }

    /**
     * Until Redis has decided 20 calls in a row and the breaker is closed: the first calls after the start may time
     * out while the client connects and loads the scripts, and open the breaker.
     */
    private static void warmUp(RateLimiterRegistry limits, CircuitBreaker breaker) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int inARow = 0;
        while (inARow < 20 || breaker.state() != State.CLOSED) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Redis did not decide 20 calls in a row within 60 s");
            }
            long errors = limits.stats("browse").errors();
            limits.tryAcquire("browse", "warm", 1);
            if (limits.stats("browse").errors() == errors) {
                inARow++;
            } else {
                inARow = 0;
                TimeUnit.MILLISECONDS.sleep(50 + breaker.remainingOpenTime().toMillis());
            }
        }
    }

    private static long millisOf(Runnable call) {
        return TimeUnit.NANOSECONDS.toMillis(nanosOf(call));
    }

    private static long microsOf(Runnable call) {
        return TimeUnit.NANOSECONDS.toMicros(nanosOf(call));
    }

    private static long nanosOf(Runnable call) {
        long start = System.nanoTime();
        call.run();
        return System.nanoTime() - start;
    }
}
