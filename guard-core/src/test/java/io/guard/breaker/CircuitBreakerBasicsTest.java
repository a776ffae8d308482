package io.guard.breaker;

import io.guard.event.GuardEvent;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.guard.breaker.TestBreakers.fail;
import static io.guard.breaker.TestBreakers.succeed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CircuitBreakerBasicsTest {

    private final TestBreakers t = new TestBreakers();

    private CircuitBreaker breaker() {
        return t.breaker(CircuitBreakerConfig.builder().slidingWindowSize(10).minimumNumberOfCalls(4)
                .permittedNumberOfCallsInHalfOpenState(2).waitDurationInOpenState(Duration.ofSeconds(5)).build());
    }

    @Test
    void opensWhenFailureRateReachesThresholdAfterMinimumCalls() {
        CircuitBreaker b = breaker();
        fail(b, 3);
        assertThat(b.state()).isEqualTo(State.CLOSED);
        assertThat(b.snapshot().failureRate()).isEqualTo(-1f);
        succeed(b, 1);
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.snapshot().calls()).isEqualTo(4);
        assertThat(b.snapshot().failureRate()).isEqualTo(75f);
    }

    @Test
    void refusesWhileOpenAndSaysForHowLong() {
        CircuitBreaker b = breaker();
        fail(b, 4);
        assertThat(b.state()).isEqualTo(State.OPEN);
        t.clock.advanceMillis(2000);
        assertThatThrownBy(() -> succeed(b, 1)).isInstanceOfSatisfying(CallNotPermittedException.class, e -> {
            assertThat(e.breakerName()).isEqualTo("test");
            assertThat(e.state()).isEqualTo(State.OPEN);
            assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(3));
            assertThat(e.getMessage()).contains("'test'", "OPEN", "3000 ms");
        });
        assertThat(b.notPermittedCalls()).isEqualTo(1);
        assertThat(b.remainingOpenTime()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void halfOpenClosesAfterSuccessfulTrialsAndReopensAfterFailedOnes() {
        CircuitBreaker b = breaker();
        fail(b, 4);
        t.clock.advanceMillis(5000);
        succeed(b, 1);
        assertThat(b.state()).isEqualTo(State.HALF_OPEN);
        succeed(b, 1);
        assertThat(b.state()).isEqualTo(State.CLOSED);
        fail(b, 4);
        t.clock.advanceMillis(5000);
        fail(b, 2);
        assertThat(b.state()).isEqualTo(State.OPEN);
        List<String> transitions = b.recentEvents().stream()
                .filter(e -> e.type() == GuardEvent.Type.STATE_TRANSITION)
                .map(e -> e.details().get("from") + "->" + e.details().get("to")).toList();
        assertThat(transitions).containsExactly("HALF_OPEN->OPEN", "OPEN->HALF_OPEN", "CLOSED->OPEN",
                "HALF_OPEN->CLOSED", "OPEN->HALF_OPEN", "CLOSED->OPEN");
    }
}
