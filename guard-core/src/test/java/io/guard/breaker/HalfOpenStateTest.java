package io.guard.breaker;

import io.guard.event.GuardEvent;
import io.guard.event.GuardEvent.Type;
import org.junit.jupiter.api.Test;

import java.io.FileNotFoundException;
import java.time.Duration;
import java.util.List;

import static io.guard.breaker.CircuitBreakerDecorators.executeCallable;
import static io.guard.breaker.CircuitBreakerDecorators.executeRunnable;
import static io.guard.breaker.CircuitBreakerDecorators.executeSupplier;
import static io.guard.breaker.TestBreakers.fail;
import static io.guard.breaker.TestBreakers.succeed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HalfOpenStateTest {

    private final TestBreakers t = new TestBreakers();

    private CircuitBreakerConfig.Builder config() {
        return CircuitBreakerConfig.builder().slidingWindowSize(10).minimumNumberOfCalls(4)
                .permittedNumberOfCallsInHalfOpenState(3).waitDurationInOpenState(Duration.ofSeconds(10));
    }

    private CircuitBreaker halfOpen(CircuitBreakerConfig config) {
        CircuitBreaker b = t.breaker(config);
        fail(b, 4);
        t.clock.advance(Duration.ofSeconds(10));
        b.transitionToHalfOpenState();
        assertThat(b.state()).isEqualTo(State.HALF_OPEN);
        return b;
    }

    @Test
    void admitsExactlyThePermittedNumberOfTrialCalls() {
        CircuitBreaker b = halfOpen(config().build());
        CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(b);
        assertThat(permissions.tryAcquirePermission()).isTrue();
        assertThat(permissions.tryAcquirePermission()).isTrue();
        assertThat(permissions.tryAcquirePermission()).isTrue();
        assertThatThrownBy(permissions::acquirePermission).isInstanceOfSatisfying(CallNotPermittedException.class, e -> {
            assertThat(e.state()).isEqualTo(State.HALF_OPEN);
            assertThat(e.retryAfter()).isZero();
            assertThat(e.getMessage()).contains("HALF_OPEN", "trial calls are taken");
        });
    }

    @Test
    void closesWithAFreshWindowWhenTheTrialsAreBelowTheThresholds() {
        CircuitBreaker b = halfOpen(config().build());
        succeed(b, 2);
        fail(b, 1); // 33% < 50%
        assertThat(b.state()).isEqualTo(State.CLOSED);
        assertThat(b.snapshot().calls()).isZero();
    }

    @Test
    void reopensWhenTheTrialsCrossAThreshold() {
        CircuitBreaker b = halfOpen(config().build());
        succeed(b, 1);
        fail(b, 2);
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.remainingOpenTime()).isEqualTo(Duration.ofSeconds(10));
        // As in Resilience4j: re-opening is a transition; the exceeded-rate events belong to CLOSED.
        assertThat(b.recentEvents()).extracting(GuardEvent::type).startsWith(Type.STATE_TRANSITION, Type.ERROR,
                Type.ERROR, Type.STATE_TRANSITION); // newest first: back to OPEN, the failed trials, into HALF_OPEN
    }

    @Test
    void reopensOnSlowTrials() {
        CircuitBreaker b = halfOpen(config().slowCallDurationThreshold(Duration.ofMillis(100))
                .slowCallRateThreshold(60).build());
        CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(b);
        assertThat(permissions.tryAcquirePermission()).isTrue();
        permissions.onSuccess(Duration.ofMillis(100).toNanos()); // exactly the threshold: not slow
        for (int i = 0; i < 2; i++) {
            assertThat(permissions.tryAcquirePermission()).isTrue();
            permissions.onSuccess(Duration.ofMillis(100).toNanos() + 1);
        }
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.snapshot().slowCalls()).isEqualTo(2);
    }

    @Test
    void givesBackThePermitOfAnIgnoredError() {
        CircuitBreaker b = halfOpen(config().permittedNumberOfCallsInHalfOpenState(1)
                .ignoreExceptions(List.of(IllegalArgumentException.class)).build());
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> executeRunnable(b, () -> {
                throw new IllegalArgumentException("not the downstream's fault");
            })).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(b.state()).isEqualTo(State.HALF_OPEN);
        succeed(b, 1);
        assertThat(b.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void givesBackAReleasedPermitButNeverMoreThanPermitted() {
        CircuitBreaker b = halfOpen(config().permittedNumberOfCallsInHalfOpenState(1).build());
        CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(b);
        permissions.releasePermission(); // a release without an acquisition must not create a second permit
        assertThat(permissions.tryAcquirePermission()).isTrue();
        assertThat(permissions.tryAcquirePermission()).isFalse();
        permissions.releasePermission();
        assertThat(permissions.tryAcquirePermission()).isTrue();
        assertThat(permissions.tryAcquirePermission()).isFalse();
    }

    @Test
    void anErrorThrownByTheCallIsRecordedAndRethrown() {
        CircuitBreaker b = halfOpen(config().permittedNumberOfCallsInHalfOpenState(1).build());
        assertThatThrownBy(() -> executeRunnable(b, () -> {
            throw new StackOverflowError("simulated");
        })).isInstanceOf(StackOverflowError.class);
        assertThat(b.state()).isEqualTo(State.OPEN);
    }

    @Test
    void maxWaitReopensAHalfOpenWhoseTrialsNeverReport() {
        CircuitBreaker b = halfOpen(config().maxWaitDurationInHalfOpenState(Duration.ofSeconds(30)).build());
        for (int i = 0; i < 3; i++) {
            assertThat(CircuitBreakerPermissions.of(b).tryAcquirePermission()).isTrue(); // never answered: a buggy caller
        }
        t.clock.advance(Duration.ofSeconds(29));
        assertThat(b.state()).isEqualTo(State.HALF_OPEN);
        t.clock.advance(Duration.ofSeconds(1));
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.recentEvents().get(0).details()).containsEntry("from", "HALF_OPEN").containsEntry("to", "OPEN");
    }

    @Test
    void maxWaitIsAppliedOnAccessEvenWithoutATimer() {
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder().clock(t.clock)
                .scheduler((delay, task) -> () -> { }).build();
        CircuitBreaker b = registry.circuitBreaker("x", config().maxWaitDurationInHalfOpenState(Duration.ofSeconds(5))
                .build());
        CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(b);
        b.transitionToHalfOpenState();
        for (int i = 0; i < 3; i++) {
            assertThat(permissions.tryAcquirePermission()).isTrue();
        }
        t.clock.advance(Duration.ofSeconds(5));
        assertThat(permissions.tryAcquirePermission()).isFalse();
        assertThat(b.state()).isEqualTo(State.OPEN);
    }

    @Test
    void leavingHalfOpenCancelsItsTimer() {
        CircuitBreaker b = halfOpen(config().maxWaitDurationInHalfOpenState(Duration.ofSeconds(5)).build());
        assertThat(t.clock.pendingTasks()).isEqualTo(1);
        succeed(b, 3);
        assertThat(b.state()).isEqualTo(State.CLOSED);
        assertThat(t.clock.pendingTasks()).isZero();
    }

    @Test
    void throwingPredicatesNeverLeakAPermit() {
        CircuitBreaker b = halfOpen(config().permittedNumberOfCallsInHalfOpenState(2)
                .ignoreException(e -> { throw new IllegalStateException("buggy ignore predicate"); })
                .recordException(e -> { throw new IllegalStateException("buggy record predicate"); })
                .recordResult(r -> { throw new IllegalStateException("buggy result predicate"); }).build());
        assertThat(executeSupplier(b, () -> "fine")).isEqualTo("fine"); // throwing result predicate: success
        assertThatThrownBy(() -> executeRunnable(b, () -> {
            throw new UnsupportedOperationException("down");
        })).isInstanceOf(UnsupportedOperationException.class); // throwing predicates: not ignored, recorded
        assertThat(b.state()).isEqualTo(State.OPEN); // 1 of 2 failed = 50%: both trials were counted
    }

    @Test
    void recordExceptionsMatchSubclassesAndIgnoreWins() {
        CircuitBreaker b = halfOpen(config().permittedNumberOfCallsInHalfOpenState(3)
                .recordExceptions(List.of(java.io.IOException.class, RuntimeException.class))
                .ignoreExceptions(List.of(IllegalArgumentException.class)).build());
        assertThatThrownBy(() -> executeCallable(b, () -> {
            throw new FileNotFoundException("subclass of a recorded type");
        })).isInstanceOf(FileNotFoundException.class);
        assertThatThrownBy(() -> executeRunnable(b, () -> {
            throw new IllegalArgumentException("recorded type, but ignored");
        })).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> executeRunnable(b, () -> {
            throw new AssertionError("neither: counts as a success");
        })).isInstanceOf(AssertionError.class);
        assertThat(b.snapshot()).extracting(s -> s.calls(), s -> s.failedCalls()).containsExactly(2, 1);
        assertThat(b.recentEvents()).extracting(GuardEvent::type).contains(Type.IGNORED_ERROR);
    }
}
