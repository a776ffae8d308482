package io.guard.breaker;

import io.guard.event.GuardEvent;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 64 threads make calls with mixed outcomes (fast and slow successes, recorded and ignored errors, calls given
 * back) while one thread moves a manual clock and another forces transitions. Afterwards: the transitions
 * published form a walk of legal moves from CLOSED to the final state, each call produced exactly one outcome or
 * refusal event, and no trial permit was lost, so the breaker still closes once calls succeed.
 */
class BreakerUnderContentionTest {

    private static final int THREADS = 64;
    private static final int CALLS_PER_THREAD = 3_000;
    private static final int HALF_OPEN_PERMITS = 4;
    private static final Duration SLOW = Duration.ofMillis(100);

    /** The states the forcing thread sends the breaker to; the others can only be reached automatically. */
    private static final State[] FORCED = {State.FORCED_OPEN, State.DISABLED, State.METRICS_ONLY, State.CLOSED};
    /** Moves the state machine makes by itself. */
    private static final Set<String> AUTOMATIC = Set.of("CLOSED>OPEN", "OPEN>HALF_OPEN", "HALF_OPEN>CLOSED",
            "HALF_OPEN>OPEN");

    private final ManualClock clock = new ManualClock();
    private final CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder().clock(clock).scheduler(clock)
            .eventBufferSize(16).build();
    private final CircuitBreaker breaker = registry.circuitBreaker("contended", CircuitBreakerConfig.builder()
            .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(20)
            .minimumNumberOfCalls(10)
            .failureRateThreshold(50f)
            .slowCallRateThreshold(60f)
            .slowCallDurationThreshold(SLOW)
            .permittedNumberOfCallsInHalfOpenState(HALF_OPEN_PERMITS)
            .waitDurationInOpenState(Duration.ofSeconds(1))
            .ignoreExceptions(List.of(IllegalArgumentException.class))
            .build());
    private final CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(breaker);

    private final Map<GuardEvent.Type, LongAdder> events = new ConcurrentHashMap<>();
    private final List<String> transitions = new ArrayList<>();

    @Test
    void historyIsLegalEveryCallIsAccountedForAndNoPermitIsLost() throws Exception {
        breaker.addListener(event -> {
            events.computeIfAbsent(event.type(), t -> new LongAdder()).increment();
            if (event.type() == GuardEvent.Type.STATE_TRANSITION) {
                synchronized (transitions) {
                    transitions.add(event.details().get("from") + ">" + event.details().get("to"));
                }
            }
        });
        Map<Outcome, LongAdder> outcomes = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            outcomes.put(outcome, new LongAdder());
        }
        LongAdder refused = new LongAdder();
        LongAdder attempted = new LongAdder();

        runContended(outcomes, refused, attempted);

        long calls = attempted.sum();
        assertThat(calls).isGreaterThanOrEqualTo((long) THREADS * CALLS_PER_THREAD);
        long successes = outcomes.get(Outcome.FAST).sum() + outcomes.get(Outcome.SLOW).sum();
        assertThat(successes + outcomes.get(Outcome.FAILED).sum() + outcomes.get(Outcome.IGNORED).sum()
                + outcomes.get(Outcome.RELEASED).sum() + refused.sum()).isEqualTo(calls);
        assertThat(count(GuardEvent.Type.SUCCESS)).as("SUCCESS events").isEqualTo(successes);
        assertThat(count(GuardEvent.Type.ERROR)).as("ERROR events").isEqualTo(outcomes.get(Outcome.FAILED).sum());
        assertThat(count(GuardEvent.Type.IGNORED_ERROR)).as("IGNORED_ERROR events")
                .isEqualTo(outcomes.get(Outcome.IGNORED).sum());
        assertThat(count(GuardEvent.Type.NOT_PERMITTED)).as("NOT_PERMITTED events").isEqualTo(refused.sum())
                .isEqualTo(breaker.notPermittedCalls());
        assertThat(refused.sum()).as("the breaker refused calls at times").isPositive();

        assertLegalWalk(breaker.state());
        assertNoTrialPermitLost();

        // Liveness: with the forcing thread gone and calls succeeding, the breaker finds its way back to CLOSED.
        breaker.transitionToClosedState();
        for (int i = 0; i < 10; i++) {
            call(Outcome.FAILED);
        }
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        clock.advance(Duration.ofSeconds(1));
        for (int i = 0; i < HALF_OPEN_PERMITS; i++) {
            assertThat(permissions.tryAcquirePermission()).as("trial permit %d", i).isTrue();
        }
        assertThat(permissions.tryAcquirePermission()).as("no trial permit beyond the configured ones").isFalse();
        for (int i = 0; i < HALF_OPEN_PERMITS; i++) {
            permissions.onSuccess(0);
        }
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        System.out.printf("breaker contention: calls=%d refused=%d transitions=%d outcomes=%s%n", calls,
                refused.sum(), transitions.size(), outcomes);
    }

    private void runContended(Map<Outcome, LongAdder> outcomes, LongAdder refused, LongAdder attempted)
            throws InterruptedException {
        // Each caller makes CALLS_PER_THREAD calls, and goes on (for 30 s at most) until the forcing thread has moved
        // the breaker often enough and some call met it refusing: on a loaded machine the forcer may get few time
        // slices during the fixed calls, none of them forcing it open.
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        AtomicBoolean running = new AtomicBoolean(true);
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(THREADS);
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < CALLS_PER_THREAD
                            || ((transitionCount() <= 10 || refused.sum() == 0)
                            && System.nanoTime() < deadline); i++) {
                        attempted.increment();
                        Outcome outcome = Outcome.values()[random.nextInt(Outcome.values().length)];
                        if (call(outcome)) {
                            outcomes.get(outcome).increment();
                        } else {
                            refused.increment();
                        }
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                } finally {
                    done.countDown();
                }
            }, "caller-" + t);
            worker.start();
        }
        Thread time = new Thread(() -> {
            while (running.get()) {
                clock.advance(Duration.ofMillis(50));
                Thread.onSpinWait();
            }
        }, "time");
        Thread forcer = new Thread(() -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (running.get()) {
                switch (FORCED[random.nextInt(FORCED.length)]) {
                    case FORCED_OPEN -> breaker.transitionToForcedOpenState();
                    case DISABLED -> breaker.transitionToDisabledState();
                    case METRICS_ONLY -> breaker.transitionToMetricsOnlyState();
                    default -> breaker.transitionToClosedState();
                }
                // Let the state machine run on its own for a while between forced moves.
                LockSupportPause.pause(TimeUnit.MICROSECONDS.toNanos(200));
            }
        }, "forcer");
        time.start();
        forcer.start();
        start.countDown();
        boolean finished = done.await(60, TimeUnit.SECONDS);
        running.set(false);
        time.join();
        forcer.join();
        assertThat(finished).as("callers finished within 60 s").isTrue();
        assertThat(failures).isEmpty();
    }

    /** The outcome a caller reports for a permitted call. */
    private enum Outcome { FAST, SLOW, FAILED, IGNORED, RELEASED }

    private boolean call(Outcome outcome) {
        if (!permissions.tryAcquirePermission()) {
            return false;
        }
        switch (outcome) {
            case FAST -> permissions.onSuccess(1_000);
            case SLOW -> permissions.onSuccess(SLOW.toNanos() * 2);
            case FAILED -> permissions.onError(1_000, new IOException("downstream failed"));
            case IGNORED -> permissions.onError(1_000, new IllegalArgumentException("caller's fault"));
            case RELEASED -> permissions.releasePermission();
        }
        return true;
    }

    private int transitionCount() {
        synchronized (transitions) {
            return transitions.size();
        }
    }

    private long count(GuardEvent.Type type) {
        LongAdder adder = events.get(type);
        return adder == null ? 0 : adder.sum();
    }

    /**
     * The transitions, in whatever order listeners saw them, are a walk from CLOSED to the final state: every state
     * is entered as often as it is left (but the ends), no move stays in place, and each move is either automatic
     * or into a state the forcing thread asked for.
     */
    private void assertLegalWalk(State last) {
        assertThat(transitions).as("transitions happened").hasSizeGreaterThan(10);
        Map<String, Integer> balance = new ConcurrentHashMap<>();
        Set<String> forcedTargets = Set.of("FORCED_OPEN", "DISABLED", "METRICS_ONLY", "CLOSED");
        for (String move : transitions) {
            String[] ends = move.split(">");
            assertThat(ends[0]).as("move %s", move).isNotEqualTo(ends[1]);
            assertThat(AUTOMATIC.contains(move) || forcedTargets.contains(ends[1])).as("move %s is legal", move)
                    .isTrue();
            balance.merge(ends[0], -1, Integer::sum);
            balance.merge(ends[1], 1, Integer::sum);
        }
        balance.merge("CLOSED", 1, Integer::sum);
        balance.merge(last.name(), -1, Integer::sum);
        balance.values().removeIf(v -> v == 0);
        assertThat(balance).as("states entered minus left (start CLOSED, end %s)", last).isEmpty();
        assertThat(transitions.stream().filter(AUTOMATIC::contains).count()).as("automatic moves").isPositive();
    }

    /** A half-open state left behind by the contention still has every trial permit not spent on a recorded call. */
    private void assertNoTrialPermitLost() {
        BreakerState state = ((DefaultCircuitBreaker) breaker).currentState();
        if (state instanceof HalfOpenState halfOpen) {
            assertThat(halfOpen.permitsLeft() + halfOpen.snapshot().calls()).as("permits left + calls recorded")
                    .isGreaterThanOrEqualTo(HALF_OPEN_PERMITS);
        }
    }

    /** Parks the forcing thread without Thread.sleep's millisecond granularity. */
    private static final class LockSupportPause {
        static void pause(long nanos) {
            java.util.concurrent.locks.LockSupport.parkNanos(nanos);
        }
    }
}
