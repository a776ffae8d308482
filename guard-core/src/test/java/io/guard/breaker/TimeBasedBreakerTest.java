package io.guard.breaker;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.guard.breaker.TestBreakers.fail;
import static io.guard.breaker.TestBreakers.succeed;
import static org.assertj.core.api.Assertions.assertThat;

class TimeBasedBreakerTest {

    private final TestBreakers t = new TestBreakers();

    private CircuitBreaker breaker() {
        return t.breaker(CircuitBreakerConfig.builder()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.TIME_BASED).slidingWindowSize(10)
                .minimumNumberOfCalls(4).build());
    }

    @Test
    void countsOnlyTheCallsOfTheLastSeconds() {
        CircuitBreaker b = breaker();
        fail(b, 3);
        t.clock.advance(Duration.ofSeconds(10)); // the failures' second has left the window
        succeed(b, 3);
        fail(b, 1);
        assertThat(b.snapshot()).extracting(s -> s.calls(), s -> s.failedCalls(), s -> s.failureRate())
                .containsExactly(4, 1, 25f);
        assertThat(b.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void opensWhenTheCallsOfTheLastSecondsCrossTheThreshold() {
        CircuitBreaker b = breaker();
        fail(b, 2);
        t.clock.advance(Duration.ofSeconds(9)); // still inside the 10 s window
        succeed(b, 1);
        assertThat(b.state()).isEqualTo(State.CLOSED);
        fail(b, 1);
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.snapshot().failureRate()).isEqualTo(75f);
    }

    @Test
    void anIdleWindowEmptiesItselfWhenRead() {
        CircuitBreaker b = breaker();
        succeed(b, 5);
        t.clock.advance(Duration.ofMinutes(5));
        assertThat(b.snapshot().calls()).isZero();
    }
}
