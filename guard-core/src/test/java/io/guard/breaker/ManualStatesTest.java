package io.guard.breaker;

import io.guard.event.GuardEvent;
import io.guard.event.GuardEvent.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.function.Consumer;

import static io.guard.breaker.TestBreakers.fail;
import static io.guard.breaker.TestBreakers.succeed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManualStatesTest {

    private static final Map<State, Consumer<CircuitBreaker>> TRANSITIONS = Map.of(
            State.CLOSED, CircuitBreaker::transitionToClosedState,
            State.OPEN, CircuitBreaker::transitionToOpenState,
            State.HALF_OPEN, CircuitBreaker::transitionToHalfOpenState,
            State.DISABLED, CircuitBreaker::transitionToDisabledState,
            State.FORCED_OPEN, CircuitBreaker::transitionToForcedOpenState,
            State.METRICS_ONLY, CircuitBreaker::transitionToMetricsOnlyState);

    private final TestBreakers t = new TestBreakers();

    private CircuitBreaker breaker() {
        return t.breaker(CircuitBreakerConfig.builder().slidingWindowSize(10).minimumNumberOfCalls(4)
                .permittedNumberOfCallsInHalfOpenState(2).build());
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void everyStateCanBeLeftForEveryOtherByHand(State from) {
        for (State to : EnumSet.complementOf(EnumSet.of(from))) {
            CircuitBreaker b = t.registry.circuitBreaker(from + "->" + to, breaker().config());
            TRANSITIONS.get(from).accept(b);
            TRANSITIONS.get(to).accept(b);
            assertThat(b.state()).as(from + " -> " + to).isEqualTo(to);
            GuardEvent last = b.recentEvents().get(0);
            assertThat(last.type()).isEqualTo(Type.STATE_TRANSITION);
            assertThat(last.details()).containsEntry("from", from.name()).containsEntry("to", to.name());
        }
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void aTransitionToTheCurrentStateChangesNothing(State state) {
        CircuitBreaker b = breaker();
        TRANSITIONS.get(state).accept(b);
        int events = b.recentEvents().size();
        TRANSITIONS.get(state).accept(b);
        assertThat(b.state()).isEqualTo(state);
        assertThat(b.recentEvents()).hasSize(events);
    }

    @Test
    void disabledAdmitsEverythingAndRecordsNothing() {
        CircuitBreaker b = breaker();
        b.transitionToDisabledState();
        fail(b, 20);
        assertThat(b.state()).isEqualTo(State.DISABLED);
        assertThat(b.snapshot().calls()).isZero();
        assertThat(b.snapshot().failureRate()).isEqualTo(-1f);
    }

    @Test
    void forcedOpenRefusesEverythingUntilTold() {
        CircuitBreaker b = breaker();
        b.transitionToForcedOpenState();
        t.clock.advance(Duration.ofDays(1));
        assertThatThrownBy(() -> succeed(b, 1)).isInstanceOfSatisfying(CallNotPermittedException.class, e -> {
            assertThat(e.state()).isEqualTo(State.FORCED_OPEN);
            assertThat(e.retryAfter()).isZero();
        });
        assertThat(b.state()).isEqualTo(State.FORCED_OPEN);
        assertThat(b.notPermittedCalls()).isEqualTo(1);
    }

    @Test
    void metricsOnlyRecordsAndReportsCrossingsButNeverOpens() {
        CircuitBreaker b = breaker();
        b.transitionToMetricsOnlyState();
        fail(b, 10);
        assertThat(b.state()).isEqualTo(State.METRICS_ONLY);
        assertThat(b.snapshot().failureRate()).isEqualTo(100f);
        assertThat(b.recentEvents()).filteredOn(e -> e.type() == Type.FAILURE_RATE_EXCEEDED).hasSize(1);
        succeed(b, 10); // back below the threshold...
        fail(b, 10); // ...and above it again: a second crossing
        assertThat(b.recentEvents()).filteredOn(e -> e.type() == Type.FAILURE_RATE_EXCEEDED).hasSize(2);
    }

    @Test
    void openedByHandKeepsTheWindowAndFollowsTheWait() {
        CircuitBreaker b = breaker();
        fail(b, 1);
        b.transitionToOpenState();
        assertThat(b.snapshot().failedCalls()).isEqualTo(1);
        assertThat(b.remainingOpenTime()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void resetStartsOverWithAnEmptyWindowAndCounters() {
        CircuitBreaker b = breaker();
        fail(b, 4);
        assertThat(CircuitBreakerPermissions.of(b).tryAcquirePermission()).isFalse();
        b.reset();
        assertThat(b.state()).isEqualTo(State.CLOSED);
        assertThat(b.snapshot().calls()).isZero();
        assertThat(b.notPermittedCalls()).isZero();
        assertThat(b.recentEvents().get(0).type()).isEqualTo(Type.RESET);
        assertThat(b.recentEvents().get(0).details()).containsEntry("from", "OPEN");
    }

    @Test
    void resetCancelsThePendingTimer() {
        CircuitBreaker b = t.registry.circuitBreaker("automatic", breaker().config().toBuilder()
                .automaticTransitionFromOpenToHalfOpenEnabled(true).build());
        fail(b, 4);
        assertThat(t.clock.pendingTasks()).isEqualTo(1);
        b.reset();
        assertThat(t.clock.pendingTasks()).isZero();
    }
}
