package io.guard.benchmarks.reliability;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.event.GuardEvent;
import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 22's check on a busy machine: a freshly made limiter (new client, scripts not yet loaded in Redis) on a
 * healthy Redis gets 12 concurrent acquisitions for a new key where the limit is 5 per 60 s, round after round, while
 * threads inside this JVM spin and allocate (start {@code stress-ng --cpu 4} beside it to saturate the machine from
 * outside too). Each round prints how many were admitted (the goal: exactly 5), the over-admission, the decision
 * latency p50/p99/max, how often the backend breaker opened and how many decisions a failure policy made.
 *
 * <p>{@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.reliability.BusyClientBurst
 * [starts per client, default 5] [rounds per start, default 4] [busy threads, default 4]
 * [guard.rate-limit.redis.timeout in ms, default 250] [cold|warm, default cold]}. {@code warm} makes one decision
 * on another key and waits for it before the first round, as an application that warms its connection and scripts
 * up before it reports ready does; {@code cold} sends the first burst into a client still connecting. Bounded: every
 * acquisition waits at most 10 s, every round is one burst, the busy threads stop when the program ends.
 */
public final class BusyClientBurst {

    private static final int BURST = 12;
    private static final int LIMIT = 5;

    private BusyClientBurst() {
    }

    public static void main(String[] args) throws Exception {
        int starts = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int busyThreads = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        Duration timeout = Duration.ofMillis(args.length > 3 ? Long.parseLong(args[3]) : 250);
        boolean warm = args.length > 4 && args[4].equals("warm");
        System.out.printf("timeout %d ms, %d busy threads in the JVM, %d starts x %d rounds per client, %s%n",
                timeout.toMillis(), busyThreads, starts, rounds, warm ? "warm" : "cold");
        Busy busy = new Busy(busyThreads);
        int[] over = new int[2];
        try (DedicatedRedis server = RedisServers.startDedicated()) {
            System.out.println("| client | start | round | admitted (want 5) | over | p50 ms | p99 ms | max ms "
                    + "| breaker openings | failure-policy decisions |");
            System.out.println("|---|---|---|---|---|---|---|---|---|---|");
            String[] clients = {"redisson", "lettuce"};
            for (int c = 0; c < clients.length; c++) {
                for (int s = 1; s <= starts; s++) {
                    over[c] += start(server, clients[c], s, rounds, timeout, warm);
                }
            }
        } finally {
            busy.stop();
        }
        System.out.printf("over-admission in total: redisson %d, lettuce %d%n", over[0], over[1]);
        System.exit(0);
    }

    /** One fresh limiter, as after an application start: returns its over-admission over all rounds. */
    private static int start(DedicatedRedis server, String client, int start, int rounds, Duration timeout,
                             boolean warm) throws Exception {
        server.endpoint("").call("SCRIPT", "FLUSH");
        RedisClients clients = RedisClients.open(client, server.url());
        ScriptConnection connection = clients.connection();
        connection.connect(); // starts connecting without waiting; the warm mode below stands for the start-up warm-up
        CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
        CircuitBreaker breaker = breakers.circuitBreaker("guard-rate-limit-backend",
                FailoverRateLimiter.recommendedBreakerConfig(timeout));
        AtomicInteger openings = new AtomicInteger();
        breaker.addListener(event -> {
            if (event.type() == GuardEvent.Type.STATE_TRANSITION && breaker.state() == State.OPEN) {
                openings.incrementAndGet();
            }
        });
        FailoverRateLimiter backend = new FailoverRateLimiter(
                new RedisRateLimiter(connection, Clock.systemUTC(), "busy:", "busy-" + start, 0, 64),
                new LocalRateLimiter(Clock.systemUTC()), breaker, Clock.systemUTC());
        RateLimiterRegistry limits = new RateLimiterRegistry(backend, Clock.systemUTC(), 100);
        limits.register(new RateLimitPolicy("order-submit", Algorithm.SLIDING_LOG, LIMIT, Duration.ofSeconds(60), 0,
                Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.FAIL_OPEN));
        if (warm) {
            warmUp(limits, breaker);
        }
        ExecutorService callers = Executors.newFixedThreadPool(BURST);
        int over = 0;
        try {
            for (int round = 1; round <= rounds; round++) {
                over += round(limits, callers, client, start, round, openings);
            }
        } finally {
            callers.shutdownNow();
            limits.close();
            backend.close();
            breakers.close();
            clients.close();
        }
        return over;
    }

    /**
     * Stands in for a start-up warm-up (issue 22 item 1): decisions on another key until Redis has decided one (the
     * connection stands, the script is loaded, the decision path has run), then a clean breaker, as if the warm-up
     * had bypassed it.
     */
    private static void warmUp(RateLimiterRegistry limits, CircuitBreaker breaker) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            long errors = limits.stats("order-submit").errors();
            limits.tryAcquireAsync("order-submit", "warm-up", 1).toCompletableFuture().get(30, TimeUnit.SECONDS);
            if (limits.stats("order-submit").errors() == errors) {
                break;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        breaker.reset();
    }

    private static int round(RateLimiterRegistry limits, ExecutorService callers, String client, int start,
                             int round, AtomicInteger openings) throws Exception {
        String key = "user-" + start + "-" + round + "-" + System.nanoTime();
        long errorsBefore = limits.stats("order-submit").errors();
        int openingsBefore = openings.get();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<long[]>> calls = new ArrayList<>();
        for (int i = 0; i < BURST; i++) {
            calls.add(callers.submit(() -> {
                go.await();
                long begin = System.nanoTime();
                boolean allowed = limits.tryAcquireAsync("order-submit", key, 1).toCompletableFuture()
                        .get(10, TimeUnit.SECONDS).allowed();
                return new long[] {allowed ? 1 : 0, System.nanoTime() - begin};
            }));
        }
        go.countDown();
        int admitted = 0;
        long[] latencies = new long[BURST];
        for (int i = 0; i < BURST; i++) {
            long[] result = calls.get(i).get(15, TimeUnit.SECONDS);
            admitted += (int) result[0];
            latencies[i] = result[1];
        }
        Arrays.sort(latencies);
        int over = Math.max(0, admitted - LIMIT);
        System.out.printf(Locale.ROOT, "| %s | %d | %d | %d | %d | %.1f | %.1f | %.1f | %d | %d |%n", client, start,
                round, admitted, over, millis(latencies[BURST / 2]), millis(latencies[(int) (BURST * 0.99)]),
                millis(latencies[BURST - 1]), openings.get() - openingsBefore,
                limits.stats("order-submit").errors() - errorsBefore);
        return over;
    }

    private static double millis(long nanos) {
        return nanos / 1_000_000.0;
    }

    /** Threads that keep every core busy and the garbage collector working, until stopped. */
    private static final class Busy {
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean running = true;

        Busy(int count) {
            for (int i = 0; i < count; i++) {
                Thread thread = new Thread(this::spin, "busy-" + i);
                thread.setDaemon(true);
                thread.start();
                threads.add(thread);
            }
        }

        private void spin() {
            long sink = 0;
            while (running) {
                byte[][] garbage = new byte[64][];
                for (int i = 0; i < garbage.length; i++) {
                    garbage[i] = new byte[1024 + (int) (sink & 1023)];
                    sink += garbage[i].length;
                }
            }
            if (sink == 42) {
                System.out.print("");
            }
        }

        void stop() {
            running = false;
        }
    }
}
