package io.guard.breaker;

import io.guard.event.GuardEvent;
import io.guard.event.GuardEvent.Type;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.guard.breaker.CircuitBreakerDecorators.executeSupplier;
import static io.guard.breaker.TestBreakers.fail;
import static io.guard.breaker.TestBreakers.succeed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClosedAndOpenStateTest {

    private final TestBreakers t = new TestBreakers();

    private CircuitBreakerConfig.Builder config() {
        return CircuitBreakerConfig.builder().slidingWindowSize(10).minimumNumberOfCalls(4)
                .waitDurationInOpenState(Duration.ofSeconds(10));
    }

    @Test
    void staysClosedBelowMinimumNumberOfCallsWhateverTheRate() {
        CircuitBreaker b = t.breaker(config().build());
        fail(b, 3);
        assertThat(b.state()).isEqualTo(State.CLOSED);
        assertThat(b.snapshot()).extracting(s -> s.calls(), s -> s.failedCalls(), s -> s.failureRate())
                .containsExactly(3, 3, -1f);
    }

    @Test
    void staysClosedBelowTheFailureRateThresholdAndOpensExactlyAtIt() {
        CircuitBreaker b = t.breaker(config().failureRateThreshold(50).build());
        succeed(b, 3);
        fail(b, 1);
        assertThat(b.state()).isEqualTo(State.CLOSED);
        assertThat(b.snapshot().failureRate()).isEqualTo(25f);
        fail(b, 2); // 3 of 6 = 50%
        assertThat(b.state()).isEqualTo(State.OPEN);
    }

    @Test
    void opensOnSlowCallsMeasuredWithTheBreakersClock() {
        CircuitBreaker b = t.breaker(config().slowCallDurationThreshold(Duration.ofSeconds(2))
                .slowCallRateThreshold(50).build());
        succeed(b, 2);
        for (int i = 0; i < 2; i++) {
            executeSupplier(b, () -> {
                t.clock.advance(Duration.ofMillis(2001));
                return "slow but fine";
            });
        }
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.snapshot()).extracting(s -> s.slowCalls(), s -> s.failedCalls(), s -> s.slowCallRate())
                .containsExactly(2, 0, 50f);
        assertThat(types(b)).containsExactly(Type.STATE_TRANSITION, Type.SLOW_CALL_RATE_EXCEEDED);
        assertThat(b.recentEvents().get(1).details()).containsEntry("slowCallRate", "50.0");
    }

    @Test
    void publishesTheExceededRateOnceThenTheTransition() {
        CircuitBreaker b = t.breaker(config().build());
        List<GuardEvent> heard = new ArrayList<>();
        b.addListener(heard::add);
        fail(b, 4);
        assertThat(heard).extracting(GuardEvent::type).containsExactly(Type.ERROR, Type.ERROR, Type.ERROR,
                Type.ERROR, Type.FAILURE_RATE_EXCEEDED, Type.STATE_TRANSITION);
        GuardEvent exceeded = heard.get(4);
        assertThat(exceeded.details()).containsEntry("failureRate", "100.0").containsEntry("threshold", "50.0");
        assertThat(exceeded.name()).isEqualTo("test");
        assertThat(exceeded.source()).isEqualTo(GuardEvent.Source.CIRCUIT_BREAKER);
        assertThat(heard.get(5).details()).containsEntry("from", "CLOSED").containsEntry("to", "OPEN");
        assertThat(heard.get(0).details()).containsEntry("error", IllegalStateException.class.getName());
    }

    @Test
    void openRefusesCountsAndPublishesRefusalsAndKeepsTheWindowThatOpenedIt() {
        CircuitBreaker b = t.breaker(config().build());
        fail(b, 4);
        assertThat(CircuitBreakerPermissions.of(b).tryAcquirePermission()).isFalse();
        assertThatThrownBy(() -> succeed(b, 1)).isInstanceOf(CallNotPermittedException.class);
        assertThat(b.notPermittedCalls()).isEqualTo(2);
        assertThat(b.recentEvents().get(0).type()).isEqualTo(Type.NOT_PERMITTED);
        assertThat(b.recentEvents().get(0).details()).containsEntry("state", "OPEN");
        assertThat(b.snapshot().failedCalls()).isEqualTo(4);
    }

    @Test
    void callsAdmittedBeforeOpeningAreCountedButDecideNothing() {
        CircuitBreaker b = t.breaker(config().build());
        CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(b);
        assertThat(permissions.tryAcquirePermission()).isTrue();
        fail(b, 4);
        permissions.onSuccess(1000);
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.snapshot().calls()).isEqualTo(5);
    }

    @Test
    void withoutAutomaticTransitionOpenWaitsForACallAfterTheWait() {
        CircuitBreaker b = t.breaker(config().build());
        CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(b);
        fail(b, 4);
        t.clock.advance(Duration.ofSeconds(9));
        assertThat(b.remainingOpenTime()).isEqualTo(Duration.ofSeconds(1));
        assertThat(permissions.tryAcquirePermission()).isFalse();
        t.clock.advance(Duration.ofSeconds(1));
        assertThat(b.remainingOpenTime()).isZero();
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(t.clock.pendingTasks()).isZero();
        assertThat(permissions.tryAcquirePermission()).isTrue();
        assertThat(b.state()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void automaticTransitionMovesToHalfOpenWhenTheTimerFires() {
        CircuitBreaker b = t.breaker(config().automaticTransitionFromOpenToHalfOpenEnabled(true).build());
        List<GuardEvent> heard = new ArrayList<>();
        b.addListener(heard::add);
        fail(b, 4);
        assertThat(t.clock.pendingTasks()).isEqualTo(1);
        t.clock.advance(Duration.ofMillis(9999));
        assertThat(heard).extracting(GuardEvent::type).doesNotContain(Type.NOT_PERMITTED).last()
                .isEqualTo(Type.STATE_TRANSITION);
        assertThat(heard.get(heard.size() - 1).details()).containsEntry("to", "OPEN");
        t.clock.advance(Duration.ofMillis(1));
        assertThat(heard.get(heard.size() - 1).details()).containsEntry("from", "OPEN")
                .containsEntry("to", "HALF_OPEN");
        assertThat(heard.get(heard.size() - 1).time()).isEqualTo(t.clock.instant());
    }

    @Test
    void automaticTransitionIsReportedEvenWhenTheTimerIsLate() {
        TestBreakers late = new TestBreakers();
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder().clock(late.clock)
                .scheduler((delay, task) -> () -> { }).build();
        CircuitBreaker b = registry.circuitBreaker("late", config().automaticTransitionFromOpenToHalfOpenEnabled(true)
                .build());
        fail(b, 4);
        late.clock.advance(Duration.ofSeconds(10));
        assertThat(b.state()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void exponentialBackoffGrowsTheWaitUpToTheCapAndStartsOverAfterClosing() {
        CircuitBreaker b = t.breaker(config().permittedNumberOfCallsInHalfOpenState(1)
                .waitDurationInOpenState(Duration.ofSeconds(1)).exponentialBackoff(2.0, Duration.ofSeconds(5)).build());
        fail(b, 4);
        List<Duration> waits = new ArrayList<>();
        for (int opening = 0; opening < 5; opening++) {
            waits.add(b.remainingOpenTime());
            t.clock.advance(b.remainingOpenTime());
            fail(b, 1); // the single trial fails: OPEN again
        }
        assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
                Duration.ofSeconds(5), Duration.ofSeconds(5));
        t.clock.advance(b.remainingOpenTime());
        succeed(b, 1);
        assertThat(b.state()).isEqualTo(State.CLOSED);
        fail(b, 4);
        assertThat(b.remainingOpenTime()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void remainingOpenTimeIsZeroOutsideOpen() {
        CircuitBreaker b = t.breaker(config().build());
        assertThat(b.remainingOpenTime()).isZero();
        b.transitionToForcedOpenState();
        assertThat(b.remainingOpenTime()).isZero();
    }

    private static List<Type> types(CircuitBreaker b) {
        return b.recentEvents().stream().map(GuardEvent::type).toList();
    }
}
