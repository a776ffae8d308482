package io.guard.breaker;

import io.guard.event.GuardEvent;
import io.guard.event.GuardEvent.Type;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The permit protocol: a handle that remembers its state and start, answered once. */
class PermitTest {

    private final TestBreakers t = new TestBreakers();

    private CircuitBreaker breaker() {
        return t.breaker(CircuitBreakerConfig.builder().slidingWindowSize(10).minimumNumberOfCalls(2)
                .permittedNumberOfCallsInHalfOpenState(1).ignoreExceptions(List.of(IllegalArgumentException.class))
                .build());
    }

    @Test
    void aPermitMeasuresItsCallOnTheBreakersClock() {
        CircuitBreaker b = breaker();
        CircuitBreaker.Permit permit = b.acquire();
        assertThat(permit.state()).isEqualTo(State.CLOSED);
        assertThat(permit.startNanos()).isEqualTo(t.clock.nanoTime());
        t.clock.advance(Duration.ofMillis(250));
        permit.onResult("ok");
        assertThat(b.snapshot().calls()).isEqualTo(1);
        assertThat(b.snapshot().averageDuration()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void onlyTheFirstAnswerCounts() {
        CircuitBreaker b = breaker();
        CircuitBreaker.Permit permit = b.acquire();
        permit.onError(new IOException("down"));
        permit.onError(new IOException("down again"));
        permit.onSuccess();
        permit.release();
        assertThat(b.snapshot().calls()).isEqualTo(1);
        assertThat(b.snapshot().failedCalls()).isEqualTo(1);
    }

    @Test
    void aPermitFromClosedReleasedInHalfOpenDoesNotAddATrialPermit() {
        CircuitBreaker b = breaker();
        CircuitBreaker.Permit admittedWhileClosed = b.acquire();
        b.transitionToHalfOpenState();
        CircuitBreaker.Permit trial = b.tryAcquire();
        assertThat(trial).isNotNull();
        assertThat(trial.state()).isEqualTo(State.HALF_OPEN);
        admittedWhileClosed.release();
        assertThat(b.tryAcquire()).isNull();
        admittedWhileClosed.onError(new IllegalArgumentException("ignored"));
        assertThat(b.tryAcquire()).isNull();
    }

    @Test
    void anIgnoredErrorGivesTheTrialPermitBackToItsOwnHalfOpen() {
        CircuitBreaker b = breaker();
        b.transitionToHalfOpenState();
        CircuitBreaker.Permit trial = b.acquire();
        assertThat(b.tryAcquire()).isNull();
        trial.onError(new IllegalArgumentException("caller's fault"));
        assertThat(b.tryAcquire()).isNotNull();
    }

    @Test
    void aRefusalIsNullFromTryAcquireAndAnExceptionFromAcquire() {
        CircuitBreaker b = breaker();
        List<GuardEvent> heard = new ArrayList<>();
        b.addListener(heard::add);
        b.transitionToForcedOpenState();
        assertThat(b.tryAcquire()).isNull();
        assertThatThrownBy(b::acquire).isInstanceOf(CallNotPermittedException.class);
        assertThat(b.notPermittedCalls()).isEqualTo(2);
        assertThat(heard).extracting(GuardEvent::type).containsSubsequence(Type.NOT_PERMITTED, Type.NOT_PERMITTED);
    }

    @Test
    void permitsMayBeAnsweredFromAnotherThread() throws Exception {
        CircuitBreaker b = breaker();
        CircuitBreaker.Permit permit = b.acquire();
        Thread other = new Thread(permit::onSuccess);
        other.start();
        other.join();
        assertThat(b.snapshot().calls()).isEqualTo(1);
        assertThat(b.snapshot().failedCalls()).isZero();
    }
}
