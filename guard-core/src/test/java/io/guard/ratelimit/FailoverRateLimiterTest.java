package io.guard.ratelimit;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.event.GuardEvent;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.time.CallbackTimer;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class FailoverRateLimiterTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final ManualClock breakerClock = new ManualClock();
    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.builder().clock(breakerClock)
            .scheduler(breakerClock).build();
    private final CircuitBreaker breaker = breakers.circuitBreaker("rate-limit-backend",
            FailoverRateLimiter.recommendedBreakerConfig());
    private final SwitchableBackend redis = new SwitchableBackend(new LocalRateLimiter(clock));
    private final AtomicBoolean saturated = new AtomicBoolean();
    private final FailoverRateLimiter failover = new FailoverRateLimiter(redis, new LocalRateLimiter(clock), breaker,
            clock, breakerClock, now -> saturated.get());
    private final RateLimiterRegistry registry = new RateLimiterRegistry(failover, clock, 20);

    @AfterEach
    void close() {
        registry.close();
        failover.close();
        breakers.close();
    }

    private RateLimitPolicy register(String name, BackendFailurePolicy onFailure) {
        return registry.register(new RateLimitPolicy(name, Algorithm.SLIDING_LOG, 2, Duration.ofSeconds(1), 0,
                Scope.GLOBAL, TimeSource.CLIENT, onFailure));
    }

    @Test
    void failOpenAllowsAndCountsAnError() {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        redis.failing(true);

        Decision decision = registry.tryAcquire("open", "k", 1);

        assertThat(decision.allowed()).isTrue();
        assertThat(decision.limit()).isEqualTo(2);
        assertThat(decision.counted()).as("nothing was counted: the decision claims no quota").isFalse();
        assertThat(decision.remaining()).isZero();
        assertThat(registry.stats("open")).isEqualTo(new LimiterStats(0, 0, 1));
        assertThat(registry.recentEvents("open")).extracting(GuardEvent::type)
                .containsExactly(GuardEvent.Type.BACKEND_FAILURE);
    }

    @Test
    void aGroupFallsBackLimitByLimitWithTheLocalLimitsAllOrNothing() {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        register("local", BackendFailurePolicy.LOCAL);
        RateLimitPolicy narrow = registry.register(new RateLimitPolicy("local-narrow", Algorithm.FIXED_WINDOW, 1,
                Duration.ofSeconds(1), 0, Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.LOCAL));
        List<RateLimitRequest> group = List.of(request("open"), request("local"), request(narrow.name()));
        redis.failing(true);

        assertThat(registry.acquireAll(group, Duration.ZERO).toCompletableFuture().join())
                .extracting(Decision::allowed, Decision::counted)
                .as("FAIL_OPEN counted nothing, LOCAL counted in process")
                .containsExactly(tuple(true, false), tuple(true, true), tuple(true, true));
        assertThat(registry.acquireAll(group, Duration.ZERO).toCompletableFuture().join())
                .extracting(Decision::allowed).as("the narrow LOCAL limit refuses").containsExactly(true, true, false);

        assertThat(registry.tryAcquire("local", "k", 1).allowed()).as("the refused group spent nothing").isTrue();
        assertThat(registry.tryAcquire("local", "k", 1).allowed()).isFalse();
        assertThat(registry.stats("open").errors()).isEqualTo(1);
    }

    @Test
    void aGroupWithAFailClosedLimitFailsWhenTheBackendDoes() {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        register("closed", BackendFailurePolicy.FAIL_CLOSED);
        redis.failing(true);

        assertThatThrownBy(() -> registry.acquireAll(List.of(request("open"), request("closed")), Duration.ZERO)
                .toCompletableFuture().join()).hasCauseInstanceOf(RateLimiterBackendException.class);
        assertThat(registry.stats("closed").errors()).isEqualTo(1);
    }

    private RateLimitRequest request(String name) {
        return new RateLimitRequest(registry.find(name).orElseThrow(), "k", 1);
    }

    @Test
    void failClosedThrowsTheBackendException() {
        register("closed", BackendFailurePolicy.FAIL_CLOSED);
        redis.failing(true);

        assertThatThrownBy(() -> registry.tryAcquire("closed", "k", 1))
                .isInstanceOf(RateLimiterBackendException.class).hasMessageContaining("'closed'");
        assertThatThrownBy(() -> failover.tryAcquire(registry.find("closed").orElseThrow(), "k", 1))
                .isInstanceOf(RateLimiterBackendException.class);
        assertThat(registry.stats("closed")).isEqualTo(new LimiterStats(0, 0, 1));
    }

    @Test
    void localDecidesInProcessWithTheSamePolicy() {
        register("local", BackendFailurePolicy.LOCAL);
        redis.failing(true);

        assertThat(registry.tryAcquire("local", "k", 1).allowed()).isTrue();
        assertThat(registry.tryAcquire("local", "k", 1).allowed()).isTrue();
        Decision third = registry.tryAcquire("local", "k", 1);

        assertThat(third.allowed()).isFalse();
        assertThat(third.retryAfter()).isEqualTo(Duration.ofSeconds(1));
        assertThat(registry.stats("local")).isEqualTo(new LimiterStats(0, 0, 3));
        assertThat(registry.recentEvents("local")).extracting(GuardEvent::type)
                .startsWith(GuardEvent.Type.RATE_LIMITED, GuardEvent.Type.BACKEND_FAILURE);
    }

    @Test
    void anOpenBreakerSkipsTheBackendUntilATrialCallFindsItBack() {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        redis.failing(true);
        for (int i = 0; i < 3; i++) {
            registry.tryAcquire("open", "k", 1);
        }
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(failover.health().orElseThrow().up()).isFalse();
        assertThat(failover.health().orElseThrow().breakerState()).isEqualTo("OPEN");
        assertThat(failover.health().orElseThrow().lastError()).isEqualTo("RateLimiterBackendException <- IllegalStateException");
        int callsWhenOpened = redis.calls.get();

        for (int i = 0; i < 50; i++) {
            assertThat(registry.tryAcquire("open", "k", 1).allowed()).isTrue();
        }
        assertThat(redis.calls).as("no call reaches the backend while open").hasValue(callsWhenOpened);
        assertThat(registry.stats("open").errors()).isEqualTo(53);

        redis.failing(false);
        breakerClock.advance(Duration.ofSeconds(2));
        assertThat(registry.tryAcquire("open", "k", 1).allowed()).isTrue();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(redis.calls).hasValue(callsWhenOpened + 1);
        assertThat(registry.backendHealth().up()).isTrue();
        assertThat(registry.backendHealth().lastError()).as("the last error is kept for the actuator").isNotNull();
        assertThat(registry.stats("open")).isEqualTo(new LimiterStats(1, 0, 53));
    }

    @Test
    void refusalsForLackOfPermitsAreSuccessesForTheBreaker() {
        register("busy", BackendFailurePolicy.FAIL_CLOSED);
        for (int i = 0; i < 20; i++) {
            registry.tryAcquire("busy", "k", 1);
        }
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(breaker.snapshot().failedCalls()).isZero();
        assertThat(registry.stats("busy")).isEqualTo(new LimiterStats(2, 18, 0));
    }

    @Test
    void invalidRequestsNeverReachTheBackendOrTheBreaker() {
        RateLimitPolicy policy = register("invalid", BackendFailurePolicy.FAIL_OPEN);

        assertThatThrownBy(() -> failover.tryAcquire(policy, "k", 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'invalid'");
        assertThat(redis.calls).hasValue(0);
        assertThat(breaker.snapshot().calls()).isZero();
    }

    @Test
    void inspectAndResetPassThroughToThePrimary() {
        RateLimitPolicy policy = register("quota", BackendFailurePolicy.FAIL_OPEN);
        registry.tryAcquire("quota", "k", 2);

        assertThat(registry.inspect("quota", "k").toCompletableFuture().join().remaining()).isZero();
        registry.reset("quota", "k").toCompletableFuture().join();

        assertThat(redis.inspect(policy, "k").toCompletableFuture().join().remaining()).isEqualTo(2);
        assertThat(registry.stats("quota")).as("inspect and reset decide nothing").isEqualTo(new LimiterStats(1, 0, 0));
    }

    @Test
    void inspectAndResetFailClearlyWhileThePrimaryIsDownWhateverTheFailurePolicy() {
        register("quota", BackendFailurePolicy.LOCAL);
        redis.failing(true);

        assertThatThrownBy(() -> registry.inspect("quota", "k").toCompletableFuture().join())
                .hasCauseInstanceOf(RateLimiterBackendException.class).hasMessageContaining("'quota'");
        assertThat(breaker.snapshot().failedCalls()).as("a round trip like a decision").isEqualTo(1);

        breaker.transitionToOpenState();
        int calls = redis.calls.get();
        assertThatThrownBy(() -> registry.reset("quota", "k").toCompletableFuture().join())
                .hasCauseInstanceOf(RateLimiterBackendException.class)
                .hasMessageContaining("rate limiter 'quota': cannot reset the quota: backend switchable skipped")
                .hasMessageContaining("is OPEN");
        assertThat(redis.calls.get()).as("an open breaker skips the primary").isEqualTo(calls);
    }

    @Test
    void resetAlsoGivesBackWhatTheLocalFallbackCounted() {
        RateLimitPolicy policy = register("quota", BackendFailurePolicy.LOCAL);
        redis.failing(true);
        registry.tryAcquire("quota", "k", 2);
        assertThat(registry.tryAcquire("quota", "k", 1).allowed()).isFalse();

        redis.failing(false);
        registry.reset("quota", "k").toCompletableFuture().join();
        redis.failing(true);

        assertThat(registry.tryAcquire("quota", "k", 1).allowed()).as("decided locally, quota whole again").isTrue();
        assertThat(policy.onBackendFailure()).isEqualTo(BackendFailurePolicy.LOCAL);
    }

    @Test
    void aDecisionTheBackendLeavesUnansweredFollowsThePolicyAfterTheTimeoutAndItsLateReplyIsIgnored() {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        redis.hanging(true);

        CompletableFuture<Decision> pending = registry.tryAcquireAsync("open", "k", 1).toCompletableFuture();
        breakerClock.advance(FailoverRateLimiter.DEFAULT_TIMEOUT.minusMillis(1));
        assertThat(pending).as("still within the timeout").isNotDone();
        breakerClock.advance(Duration.ofMillis(1));

        assertThat(pending.join().allowed()).isTrue();
        assertThat(registry.stats("open")).isEqualTo(new LimiterStats(0, 0, 1));
        assertThat(failover.health().orElseThrow().lastError())
                .isEqualTo("RateLimiterBackendException <- TimeoutException");
        CompletableFuture<BackendOutcome> late = redis.unanswered.get(0);
        assertThat(late).as("the backend may drop a call it has not sent").isCancelled();
        assertThat(breaker.snapshot().failedCalls()).isEqualTo(1);

        late.complete(BackendOutcome.decided(new Decision(false, 0, Duration.ofSeconds(1), Duration.ofSeconds(1), 2)));
        assertThat(breaker.snapshot().failedCalls()).as("a late reply is not recorded again").isEqualTo(1);
        assertThat(breaker.snapshot().successfulCalls()).isZero();
        assertThat(registry.stats("open")).isEqualTo(new LimiterStats(0, 0, 1));
    }

    @Test
    void aTimedOutDecisionUnderFailClosedIsARefusalNamingTheTimeout() {
        register("closed", BackendFailurePolicy.FAIL_CLOSED);
        redis.hanging(true);

        CompletableFuture<Decision> pending = registry.tryAcquireAsync("closed", "k", 1).toCompletableFuture();
        breakerClock.advance(FailoverRateLimiter.DEFAULT_TIMEOUT);

        assertThatThrownBy(pending::join).hasCauseInstanceOf(RateLimiterBackendException.class)
                .hasMessageContaining("'closed'").hasMessageContaining("did not answer within 250 ms");
    }

    @Test
    void aTimedOutDecisionUnderLocalIsDecidedInProcessOnce() {
        register("local", BackendFailurePolicy.LOCAL);
        redis.hanging(true);
        List<CompletableFuture<Decision>> pending = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pending.add(registry.tryAcquireAsync("local", "k", 1).toCompletableFuture());
        }
        breakerClock.advance(FailoverRateLimiter.DEFAULT_TIMEOUT);

        assertThat(pending).extracting(p -> p.join().allowed()).containsExactlyInAnyOrder(true, true, false);
        redis.unanswered.forEach(late -> late.complete(BackendOutcome.decided(
                new Decision(true, 1, Duration.ZERO, Duration.ZERO, 2))));
        assertThat(registry.stats("local")).isEqualTo(new LimiterStats(0, 0, 3));
    }

    @Test
    void threeTimeoutsOpenTheBreakerAfterAHealthyHistoryAndTheTrialCallHasTheSameBound() {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        for (int i = 0; i < 20; i++) {
            registry.tryAcquire("open", "k" + i, 1);
        }
        redis.hanging(true);
        for (int i = 0; i < 3; i++) {
            assertThat(breaker.state()).isEqualTo(State.CLOSED);
            CompletableFuture<Decision> pending = registry.tryAcquireAsync("open", "k", 1).toCompletableFuture();
            breakerClock.advance(FailoverRateLimiter.DEFAULT_TIMEOUT);
            assertThat(pending.join().allowed()).isTrue();
        }
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        int callsWhenOpened = redis.calls.get();
        assertThat(registry.tryAcquireAsync("open", "k", 1).toCompletableFuture()).as("answered without a round trip")
                .isCompletedWithValueMatching(Decision::allowed);
        assertThat(redis.calls).hasValue(callsWhenOpened);

        breakerClock.advance(Duration.ofSeconds(2));
        CompletableFuture<Decision> trial = registry.tryAcquireAsync("open", "k", 1).toCompletableFuture();
        assertThat(redis.calls).as("the trial call reaches the backend").hasValue(callsWhenOpened + 1);
        assertThat(trial).isNotDone();
        breakerClock.advance(FailoverRateLimiter.DEFAULT_TIMEOUT);
        assertThat(trial.join().allowed()).isTrue();
        assertThat(breaker.state()).as("the trial timed out").isEqualTo(State.OPEN);
    }

    @Test
    void aReplyLateInABusyClientWhileTheBackendAnsweredOtherCallsIsWaitedForAndIsASuccess() {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        redis.hanging(true);

        CompletableFuture<Decision> pending = registry.tryAcquireAsync("open", "k", 1).toCompletableFuture();
        redis.replies.incrementAndGet(); // the backend answered another call meanwhile: it is alive
        breakerClock.advance(FailoverRateLimiter.DEFAULT_TIMEOUT.plusMillis(100));
        assertThat(pending).as("past the timeout, but the backend is alive").isNotDone();

        redis.unanswered.get(0).complete(BackendOutcome.decided(
                new Decision(false, 0, Duration.ofSeconds(1), Duration.ofSeconds(1), 2)));

        assertThat(pending.join().allowed()).as("the backend's own decision, not the failure policy's").isFalse();
        assertThat(registry.stats("open")).isEqualTo(new LimiterStats(0, 1, 0));
        assertThat(breaker.snapshot().failedCalls()).isZero();
        assertThat(breaker.snapshot().slowCalls()).as("late in the client is not slow in the backend").isZero();
    }

    @Test
    void aBusyClientNeverOpensTheBreakerAndGivesUpOnlyAtThePatienceLimitWithoutRecordingAFailure() {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        redis.hanging(true);
        for (int i = 0; i < 5; i++) {
            CompletableFuture<Decision> pending = registry.tryAcquireAsync("open", "k" + i, 1).toCompletableFuture();
            redis.replies.incrementAndGet();
            breakerClock.advance(FailoverRateLimiter.DEFAULT_TIMEOUT.multipliedBy(FailoverRateLimiter.PATIENCE)
                    .minusMillis(1));
            assertThat(pending).as("waits up to the patience limit").isNotDone();
            breakerClock.advance(Duration.ofMillis(1));
            assertThat(pending.join().allowed()).as("then the failure policy answers").isTrue();
        }
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(breaker.snapshot().failedCalls()).isZero();
        assertThat(registry.stats("open").errors()).isEqualTo(5);
        assertThat(failover.health().orElseThrow().lastError())
                .isEqualTo("RateLimiterBackendException <- TimeoutException");
    }

    /**
     * The failure policy's answer to a call given up, and whatever the caller chained on it, run on Guard's own named
     * threads: not on the timer's (which must go on timing other calls), and not on a thread made for the one task,
     * which is what CompletableFuture's default asynchronous executor does on a machine of one or two CPUs.
     */
    @Test
    void aCallGivenUpIsAnsweredOnAThreadOfGuardsOwnPool() {
        CircuitBreakerRegistry realTime = CircuitBreakerRegistry.builder().build();
        FailoverRateLimiter timed = new FailoverRateLimiter(redis, new LocalRateLimiter(clock),
                realTime.circuitBreaker("timed", FailoverRateLimiter.recommendedBreakerConfig(Duration.ofMillis(20))),
                clock);
        RateLimitPolicy policy = new RateLimitPolicy("open", Algorithm.SLIDING_LOG, 2, Duration.ofSeconds(1), 0,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_OPEN);
        redis.hanging(true);
        try {
            List<String> answeredOn = new CopyOnWriteArrayList<>();
            List<CompletableFuture<Void>> answers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                answers.add(timed.decide(policy, "k" + i, 1).toCompletableFuture()
                        .thenAccept(outcome -> answeredOn.add(Thread.currentThread().getName())));
            }
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            assertThat(answeredOn).hasSize(3).allSatisfy(name -> assertThat(name)
                    .startsWith(CallDeadlines.ANSWER_THREADS));
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            timed.close();
            realTime.close();
        }
    }

    /** As Spring wires it: the application's one timer, whose callbacks already run on threads of their own. */
    @Test
    void aCallGivenUpIsAnsweredOnTheSharedTimersCallbackThreadsNotOnANewThreadEach() {
        CircuitBreakerRegistry realTime = CircuitBreakerRegistry.builder().build();
        CallbackTimer shared = new CallbackTimer("shared-timer", "shared-callback", 2);
        FailoverRateLimiter timed = new FailoverRateLimiter(redis, new LocalRateLimiter(clock),
                realTime.circuitBreaker("timed", FailoverRateLimiter.recommendedBreakerConfig(Duration.ofMillis(20))),
                clock, shared);
        RateLimitPolicy policy = new RateLimitPolicy("open", Algorithm.SLIDING_LOG, 2, Duration.ofSeconds(1), 0,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_OPEN);
        redis.hanging(true);
        try {
            List<String> answeredOn = new CopyOnWriteArrayList<>();
            List<CompletableFuture<Void>> answers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                answers.add(timed.decide(policy, "k" + i, 1).toCompletableFuture()
                        .thenAccept(outcome -> answeredOn.add(Thread.currentThread().getName())));
            }
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            assertThat(answeredOn).hasSize(3).allSatisfy(name -> assertThat(name).startsWith("shared-callback"));
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            timed.close();
            shared.close();
            realTime.close();
        }
    }

    @Test
    void aTimerThatFiresLateMeansAStalledClientSoTheCallWaitsOnForItsReply() {
        ManualClock stalled = new ManualClock();
        CircuitBreakerRegistry slowBreakers = CircuitBreakerRegistry.builder().clock(stalled).scheduler(stalled).build();
        CircuitBreaker slowBreaker = slowBreakers.circuitBreaker("stalled", FailoverRateLimiter.recommendedBreakerConfig());
        Duration pause = FailoverRateLimiter.DEFAULT_TIMEOUT; // e.g. a GC pause: every timer runs this much late
        FailoverRateLimiter paused = new FailoverRateLimiter(redis, new LocalRateLimiter(clock), slowBreaker, clock,
                (delay, task) -> stalled.schedule(delay.plus(pause), task), ClientLoad.IDLE);
        RateLimitPolicy policy = new RateLimitPolicy("open", Algorithm.SLIDING_LOG, 2, Duration.ofSeconds(1), 0,
                Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_OPEN);
        redis.hanging(true);
        try {
            CompletableFuture<BackendOutcome> pending = paused.decide(policy, "k", 1).toCompletableFuture();
            stalled.advance(FailoverRateLimiter.DEFAULT_TIMEOUT.plus(pause));
            assertThat(pending).as("the backend was silent, but so was this JVM").isNotDone();

            redis.unanswered.get(0).complete(BackendOutcome.decided(new Decision(true, 1, Duration.ZERO,
                    Duration.ZERO, 2)));
            assertThat(pending.join().backendError()).isNull();
            assertThat(slowBreaker.snapshot().failedCalls()).isZero();
        } finally {
            slowBreakers.close();
        }
    }

    @Test
    void beforeTheBackendsFirstReplyACallWaitsUpToThePatienceLimitThenCountsAsTheBackendsFailure() {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        redis.replies.set(0); // connecting, loading scripts: nothing heard from the backend yet
        redis.hanging(true);

        CompletableFuture<Decision> pending = registry.tryAcquireAsync("open", "k", 1).toCompletableFuture();
        breakerClock.advance(FailoverRateLimiter.DEFAULT_TIMEOUT);
        assertThat(pending).as("a cold client gets the patience limit").isNotDone();
        breakerClock.advance(FailoverRateLimiter.DEFAULT_TIMEOUT.multipliedBy(FailoverRateLimiter.PATIENCE - 1));

        assertThat(pending.join().allowed()).isTrue();
        assertThat(breaker.snapshot().failedCalls()).as("silent all along: a backend hung from the start").isEqualTo(1);
    }

    @Test
    void onASaturatedCpuASilentBackendIsBlamedOnlyAtThePatienceLimit() {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        saturated.set(true);
        redis.hanging(true);

        CompletableFuture<Decision> pending = registry.tryAcquireAsync("open", "k", 1).toCompletableFuture();
        breakerClock.advance(FailoverRateLimiter.DEFAULT_TIMEOUT);
        assertThat(pending).as("the reply may be waiting for a CPU in this JVM").isNotDone();
        redis.unanswered.get(0).complete(BackendOutcome.decided(new Decision(true, 1, Duration.ZERO, Duration.ZERO,
                2)));

        assertThat(pending.join().allowed()).isTrue();
        assertThat(registry.stats("open")).isEqualTo(new LimiterStats(1, 0, 0));
        assertThat(breaker.snapshot().failedCalls()).isZero();
    }

    @Test
    void aSilentBackendIsGivenUpAtTheTimeoutEvenWhenItAnsweredBeforeTheCallStarted() {
        register("open", BackendFailurePolicy.FAIL_OPEN);
        redis.replies.addAndGet(100); // a healthy history: replies before this call say nothing about it
        redis.hanging(true);

        CompletableFuture<Decision> pending = registry.tryAcquireAsync("open", "k", 1).toCompletableFuture();
        breakerClock.advance(FailoverRateLimiter.DEFAULT_TIMEOUT);

        assertThat(pending.join().allowed()).isTrue();
        assertThat(breaker.snapshot().failedCalls()).isEqualTo(1);
    }

    private void registerWaiting(String name, BackendFailurePolicy onFailure, ReplicaWait wait) {
        registry.register(new RateLimitPolicy(name, Algorithm.FIXED_WINDOW, 1_000, Duration.ofHours(1), 0,
                Scope.GLOBAL, TimeSource.CLIENT, onFailure).withReplicaWait(wait));
    }

    /**
     * A primary without its replicas for a while (issue 32 item 2: after a Sentinel failover, until the old primary
     * is back as a replica): the admissions of a limit that waits for a replica follow its failure policy, but Redis
     * answers every call, so the backend breaker stays closed and the other limits go on being decided by Redis.
     * Before the fix the third shortfall opened the breaker, which then answered every limit.
     */
    @Test
    void admissionsNoReplicaAcknowledgedFollowThePolicyWhileTheBreakerStaysClosedForEveryLimit() {
        registerWaiting("submit", BackendFailurePolicy.FAIL_CLOSED, new ReplicaWait(1, Duration.ofMillis(100)));
        registerWaiting("detail", BackendFailurePolicy.FAIL_CLOSED, ReplicaWait.NONE);
        redis.shortOfReplicas(true);

        for (int i = 0; i < 10; i++) {
            assertThatThrownBy(() -> registry.tryAcquire("submit", "k", 1))
                    .as("an admission no replica has is refused by FAIL_CLOSED")
                    .isInstanceOf(ReplicaShortfallException.class).hasMessageContaining("0 of 1 replicas");
        }
        assertThat(breaker.state()).as("Redis answered every call").isEqualTo(State.CLOSED);
        int before = redis.calls.get();
        assertThat(registry.tryAcquire("detail", "k", 1).allowed()).as("a limit that waits for no replica").isTrue();
        assertThat(redis.calls.get()).as("decided by Redis, not by the failure policy").isEqualTo(before + 1);
        assertThat(failover.health().orElseThrow().up()).isTrue();

        redis.shortOfReplicas(false);
        assertThat(registry.tryAcquire("submit", "k", 1).allowed())
                .as("admitted by the first call once a replica acknowledges, with no breaker wait").isTrue();
    }

    @Test
    void aFailOpenLimitShortOfReplicasAllowsWithoutCountingAndSaysWhy() {
        registerWaiting("open", BackendFailurePolicy.FAIL_OPEN, new ReplicaWait(1, Duration.ofMillis(100)));
        redis.shortOfReplicas(true);

        assertThat(registry.tryAcquire("open", "k", 1).allowed()).isTrue();
        assertThat(registry.stats("open").errors()).isEqualTo(1);
        assertThat(BackendFailureReason.of(new ReplicaShortfallException("x", null)))
                .isEqualTo(BackendFailureReason.REPLICAS);
        assertThat(BackendFailureReason.REPLICAS.tag()).isEqualTo("replicas");
    }

    @Test
    void theRecommendedConfigurationNeedsAPositiveTimeout() {
        assertThatThrownBy(() -> FailoverRateLimiter.recommendedBreakerConfig(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT0S");
        assertThatThrownBy(() -> FailoverRateLimiter.recommendedBreakerConfig(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
