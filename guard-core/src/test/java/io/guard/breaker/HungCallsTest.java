package io.guard.breaker;

import io.guard.event.GuardEvent;
import io.guard.event.GuardEvent.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static io.guard.breaker.CircuitBreakerDecorators.decorateCompletionStage;
import static io.guard.breaker.CircuitBreakerDecorators.executeCallable;
import static io.guard.breaker.CircuitBreakerDecorators.executeSupplier;
import static io.guard.breaker.TestBreakers.succeed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Calls that never end must still open the breaker: running past the slow-call threshold counts as slow. */
class HungCallsTest {

    private static final Duration SLOW = Duration.ofSeconds(1);

    private final TestBreakers t = new TestBreakers();

    private CircuitBreaker breaker(float slowRate) {
        return t.breaker(CircuitBreakerConfig.builder().slidingWindowSize(10).minimumNumberOfCalls(5)
                .slowCallDurationThreshold(SLOW).slowCallRateThreshold(slowRate)
                .permittedNumberOfCallsInHalfOpenState(2).build());
    }

    @Test
    void callsHangingPastTheThresholdOpenTheBreakerThoughNoneEnds() {
        CircuitBreaker b = breaker(50);
        succeed(b, 10);
        List<CircuitBreaker.Permit> hanging = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            hanging.add(b.acquire());
        }
        t.clock.advance(SLOW.minusMillis(1));
        assertThat(b.tryAcquire()).as("not slow yet").isNotNull();
        assertThat(b.state()).isEqualTo(State.CLOSED);
        t.clock.advance(SLOW.dividedBy(4).plusMillis(2)); // at most a quarter of the threshold late
        b.tryAcquire(); // a starting call looks for hung calls once per tracking generation
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.recentEvents()).extracting(GuardEvent::type)
                .contains(Type.SLOW_CALL_RATE_EXCEEDED, Type.STATE_TRANSITION);
    }

    /**
     * Issue #24 item 1: threshold 100 ms, rate 50 %, minimum 5; 5 (or 80) callers block in the method. 225 ms
     * later (threshold, a quarter of it, slack) the state reads OPEN before any further call, and the next caller
     * is refused rather than admitted to block as well.
     */
    @ParameterizedTest
    @ValueSource(ints = {5, 80})
    void theCallAfterEveryCallHungIsRefusedAndTheStateSaysOpenBeforeIt(int blocked) throws Exception {
        CircuitBreaker b = t.breaker(CircuitBreakerConfig.builder().slowCallDurationThreshold(Duration.ofMillis(100))
                .slowCallRateThreshold(50).minimumNumberOfCalls(5).build());
        CountDownLatch entered = new CountDownLatch(blocked);
        CountDownLatch unblock = new CountDownLatch(1);
        ExecutorService callers = Executors.newFixedThreadPool(blocked);
        try {
            for (int i = 0; i < blocked; i++) {
                callers.submit(() -> executeCallable(b, () -> {
                    entered.countDown();
                    return unblock.await(30, TimeUnit.SECONDS);
                }));
            }
            assertThat(entered.await(30, TimeUnit.SECONDS)).as("every caller is in the method").isTrue();
            t.clock.advance(Duration.ofMillis(225));
            assertThat(b.state()).as("read before any further call").isEqualTo(State.OPEN);
            assertThat(b.snapshot().slowCalls()).isEqualTo(blocked);
            assertThatThrownBy(() -> executeSupplier(b, () -> "the next caller"))
                    .isInstanceOf(CallNotPermittedException.class);
        } finally {
            unblock.countDown();
            callers.shutdown();
            assertThat(callers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void theNextCallerIsRefusedToWhenNobodyReadTheStateInBetween() {
        CircuitBreaker b = t.breaker(CircuitBreakerConfig.builder().slowCallDurationThreshold(Duration.ofMillis(100))
                .slowCallRateThreshold(50).minimumNumberOfCalls(5).build());
        for (int i = 0; i < 5; i++) {
            b.acquire();
        }
        t.clock.advance(Duration.ofMillis(225));
        assertThat(b.tryAcquire()).as("the sixth call").isNull();
        assertThat(b.state()).isEqualTo(State.OPEN);
    }

    @Test
    void hungCallsThatEndBeforeTheNextLookAreCountedOnceAsTheSlowCallsTheyWere() {
        CircuitBreaker b = t.breaker(CircuitBreakerConfig.builder().slowCallDurationThreshold(Duration.ofMillis(100))
                .slowCallRateThreshold(100).minimumNumberOfCalls(4).build());
        List<CircuitBreaker.Permit> running = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            running.add(b.acquire());
        }
        t.clock.advance(Duration.ofMillis(300));
        assertThat(b.snapshot().slowCalls()).isEqualTo(3);
        running.forEach(CircuitBreaker.Permit::onSuccess); // slow successes now, in the window
        assertThat(b.snapshot().slowCalls()).as("not counted again as running").isEqualTo(3);
        assertThat(b.snapshot().calls()).isEqualTo(3);
        b.acquire().onSuccess();
        assertThat(b.state()).as("3 slow of 4: 75 %").isEqualTo(State.CLOSED);
    }

    @Test
    void withTheDefaultRateOfOneHundredPercentEnoughHangingCallsPushTheOldSuccessesOut() {
        CircuitBreaker b = breaker(100);
        succeed(b, 10);
        for (int i = 0; i < 9; i++) {
            b.acquire();
        }
        t.clock.advance(SLOW.multipliedBy(2));
        b.tryAcquire(); // 9 hung of the last 10 calls started: 90%
        assertThat(b.state()).isEqualTo(State.CLOSED);
        assertThat(b.snapshot().calls()).isEqualTo(10);
        assertThat(b.snapshot().slowCalls()).isEqualTo(9);
        t.clock.advance(SLOW.multipliedBy(2)); // now the 10th (started above) hangs too
        b.tryAcquire();
        assertThat(b.state()).isEqualTo(State.OPEN);
    }

    @Test
    void aHungCallThatEndsCountsOnceAsTheSlowCallItWas() {
        CircuitBreaker b = breaker(100);
        CircuitBreaker.Permit permit = b.acquire();
        t.clock.advance(SLOW.multipliedBy(2));
        assertThat(b.snapshot().slowCalls()).isEqualTo(1);
        assertThat(b.snapshot().calls()).isEqualTo(1);
        permit.onSuccess();
        assertThat(b.snapshot().slowCalls()).isEqualTo(1);
        assertThat(b.snapshot().calls()).isEqualTo(1);
    }

    @Test
    void callsWithinTheThresholdAreNotCounted() {
        CircuitBreaker b = breaker(50);
        for (int i = 0; i < 10; i++) {
            b.acquire();
        }
        t.clock.advance(SLOW.minusMillis(1));
        assertThat(b.snapshot().calls()).isZero();
        assertThat(b.snapshot().slowCalls()).isZero();
    }

    @Test
    void hangingTrialCallsDecideHalfOpenThroughTheCallsTheyBlock() {
        CircuitBreaker b = breaker(50);
        b.transitionToHalfOpenState();
        b.acquire();
        b.acquire();
        assertThat(b.tryAcquire()).isNull(); // every trial permit is taken by a hanging call
        t.clock.advance(SLOW.multipliedBy(2));
        assertThat(b.tryAcquire()).isNull(); // this refusal looks at the running trials: both hung
        assertThat(b.state()).isEqualTo(State.OPEN);
    }

    @Test
    void hangingCompletionStagesAreSeenToo() {
        CircuitBreaker b = breaker(50);
        succeed(b, 5);
        for (int i = 0; i < 5; i++) {
            decorateCompletionStage(b, CompletableFuture::new).get();
        }
        t.clock.advance(SLOW.multipliedBy(2));
        b.tryAcquire();
        assertThat(b.state()).isEqualTo(State.OPEN);
    }

    @Test
    void runningCountsStayExactUnderConcurrencyIncludingThreadsBeyondTheOwnCellsAndForeignAnswers() throws Exception {
        CircuitBreaker b = t.breaker(CircuitBreakerConfig.builder().slidingWindowSize(1000).minimumNumberOfCalls(1000)
                .slowCallDurationThreshold(SLOW).build());
        int threads = 80; // more threads than the tracker gives cells of their own: the rest share an atomic cell
        java.util.concurrent.ExecutorService answerer = java.util.concurrent.Executors.newSingleThreadExecutor();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        List<CircuitBreaker.Permit> leftOpen = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int id = i;
                done.add(pool.submit(() -> {
                    for (int n = 0; n < 500; n++) {
                        executeSupplier(b, () -> "ok");
                        CircuitBreaker.Permit permit = b.acquire();
                        if (n % 2 == 0) {
                            answerer.submit(permit::onSuccess); // answered on another thread
                        } else if (n == 1 && id % 10 == 0) {
                            leftOpen.add(permit); // 8 calls that hang
                        } else {
                            permit.release();
                        }
                    }
                    return null;
                }));
            }
            for (var f : done) {
                f.get(60, java.util.concurrent.TimeUnit.SECONDS);
            }
            answerer.submit(() -> { }).get(60, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
            answerer.shutdownNow();
        }
        t.clock.advance(SLOW.multipliedBy(2));
        assertThat(b.snapshot().slowCalls()).isEqualTo(leftOpen.size()).isEqualTo(8);
        leftOpen.forEach(CircuitBreaker.Permit::onSuccess);
        assertThat(b.snapshot().slowCalls()).as("finished after 2 s: slow calls of the window now").isEqualTo(8);
        t.clock.advance(SLOW.multipliedBy(2));
        b.acquire().onSuccess();
        assertThat(b.snapshot().calls()).isEqualTo(1000);
    }

    @Test
    void theHandleLessPermissionApiIsNotWatched() {
        CircuitBreaker b = breaker(50);
        for (int i = 0; i < 10; i++) {
            assertThat(CircuitBreakerPermissions.of(b).tryAcquirePermission()).isTrue();
        }
        t.clock.advance(SLOW.multipliedBy(2));
        assertThat(b.snapshot().calls()).isZero();
    }

    @Test
    void aTimeoutCompletesTheStageRecordsAFailureAndIgnoresTheLateAnswer() {
        CircuitBreaker b = t.breaker(CircuitBreakerConfig.builder().slidingWindowSize(10).minimumNumberOfCalls(1)
                .failureRateThreshold(100).recordExceptions(List.of(IllegalStateException.class))
                .timeout(Duration.ofSeconds(2)).build());
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletionStage<String> stage = decorateCompletionStage(b, () -> work).get();
        t.clock.advance(Duration.ofMillis(1999));
        assertThat(stage.toCompletableFuture()).isNotDone();
        t.clock.advance(Duration.ofMillis(1));
        assertThatThrownBy(() -> stage.toCompletableFuture().join()).hasCauseInstanceOf(TimeoutException.class);
        assertThat(work).isCompletedExceptionally(); // the caller's own future: the work behind it is cancelled
        assertThat(b.snapshot().failedCalls()).as("a failure although not in record-exceptions").isEqualTo(1);
        assertThat(b.state()).isEqualTo(State.OPEN);
        work.obtrudeValue("late"); // a late answer cannot count the call twice
        assertThat(b.snapshot().calls()).isEqualTo(1);
    }

    @Test
    void aStageThatCompletesInTimeCancelsItsTimer() {
        CircuitBreaker b = t.breaker(CircuitBreakerConfig.builder().timeout(Duration.ofSeconds(2)).build());
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletionStage<String> stage = decorateCompletionStage(b, () -> work).get();
        assertThat(t.clock.pendingTasks()).isEqualTo(1);
        work.complete("ok");
        assertThat(t.clock.pendingTasks()).isZero();
        assertThat(stage.toCompletableFuture().join()).isEqualTo("ok");
        assertThat(b.snapshot().failedCalls()).isZero();
    }
}
