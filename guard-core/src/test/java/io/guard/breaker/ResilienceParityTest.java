package io.guard.breaker;

import io.guard.event.GuardEvent;
import io.guard.event.GuardEvent.Type;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.guard.breaker.CircuitBreakerDecorators.decorateCompletionStage;
import static io.guard.breaker.CircuitBreakerDecorators.executeCheckedSupplier;
import static io.guard.breaker.CircuitBreakerDecorators.executeRunnable;
import static io.guard.breaker.CircuitBreakerDecorators.executeSupplier;
import static io.guard.breaker.TestBreakers.fail;
import static io.guard.breaker.TestBreakers.succeed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Behaviour that matches Resilience4j 2.4 where Guard used to differ without saying so (issue #24 item 4). */
class ResilienceParityTest {

    private final TestBreakers t = new TestBreakers();

    private static CircuitBreakerConfig.Builder small() {
        return CircuitBreakerConfig.builder().slidingWindowSize(4).minimumNumberOfCalls(2)
                .permittedNumberOfCallsInHalfOpenState(2).waitDurationInOpenState(Duration.ofSeconds(10));
    }

    @Test
    void aHalfOpenThatOpensAgainPublishesTheTransitionButNoExceededRate() {
        CircuitBreaker b = t.breaker(small().build());
        b.transitionToHalfOpenState();
        List<Type> heard = new ArrayList<>();
        b.addListener(e -> heard.add(e.type()));
        fail(b, 2);
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(heard).containsExactly(Type.ERROR, Type.ERROR, Type.STATE_TRANSITION);
    }

    @Test
    void closedStillPublishesTheExceededRateBeforeItOpens() {
        CircuitBreaker b = t.breaker(small().build());
        List<Type> heard = new ArrayList<>();
        b.addListener(e -> heard.add(e.type()));
        fail(b, 2);
        assertThat(heard).containsExactly(Type.ERROR, Type.ERROR, Type.FAILURE_RATE_EXCEEDED, Type.STATE_TRANSITION);
    }

    @Test
    void transitionOnResultIsAskedOnlyAboutNonNullResultsAndThrowablesThatAreNotIgnored() throws Throwable {
        List<String> asked = new ArrayList<>();
        CircuitBreaker b = t.breaker(small().slidingWindowSize(100).minimumNumberOfCalls(100)
                .recordResult("bad"::equals)
                .ignoreExceptions(List.of(IllegalArgumentException.class))
                .transitionOnResult((result, error) -> {
                    asked.add(result != null ? "result " + result : "error " + error.getClass().getSimpleName());
                    return TransitionCheck.noTransition();
                }).build());
        executeRunnable(b, () -> { });                       // a plain success: not asked
        executeSupplier(b, () -> null);                     // a null result: not asked
        executeSupplier(b, () -> "bad");                    // recorded as a failure by recordResult: not asked
        executeSupplier(b, () -> "good");
        assertThatThrownBy(() -> executeRunnable(b, () -> {
            throw new IllegalArgumentException("ignored");
        })).isInstanceOf(IllegalArgumentException.class); // ignored: not asked
        assertThatThrownBy(() -> executeCheckedSupplier(b, () -> {
            throw new IOException("recorded");
        })).isInstanceOf(IOException.class);
        assertThat(asked).containsExactly("result good", "error IOException");
    }

    @Test
    void transitionOnResultDoesNotOpenAHalfOpenBreaker() {
        CircuitBreaker b = t.breaker(small().transitionOnResult((result, error) -> "retry later".equals(result)
                ? TransitionCheck.transitionToOpen() : TransitionCheck.noTransition()).build());
        b.transitionToHalfOpenState();
        executeSupplier(b, () -> "retry later");
        assertThat(b.state()).as("HALF_OPEN decides by its trial calls").isEqualTo(State.HALF_OPEN);
        executeSupplier(b, () -> "ok");
        assertThat(b.state()).isEqualTo(State.CLOSED);
        executeSupplier(b, () -> "retry later");
        assertThat(b.state()).as("CLOSED acts on the check").isEqualTo(State.OPEN);
    }

    @Test
    void aNullStateAfterTheHalfOpenWaitIsRefused() {
        assertThatThrownBy(() -> small().transitionToStateAfterWaitDuration(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("transition-to-state-after-wait-duration must not be null");
    }

    @Test
    void refusalsCarryAStackTraceOnlyWhenAsked() {
        CircuitBreaker plain = t.registry.circuitBreaker("plain", small().build());
        CircuitBreaker traced = t.registry.circuitBreaker("traced", small().writableStackTraceEnabled(true).build());
        plain.transitionToForcedOpenState();
        traced.transitionToForcedOpenState();
        assertThatThrownBy(() -> executeSupplier(plain, () -> "x"))
                .isInstanceOfSatisfying(CallNotPermittedException.class,
                        e -> assertThat(e.getStackTrace()).isEmpty());
        assertThatThrownBy(() -> executeSupplier(traced, () -> "x"))
                .isInstanceOfSatisfying(CallNotPermittedException.class,
                        e -> assertThat(e.getStackTrace()).isNotEmpty());
        assertThat(CallNotPermittedException.createCallNotPermittedException(traced).getStackTrace()).isNotEmpty();
        assertThat(decorateCompletionStage(traced, () -> null).get().toCompletableFuture().handle((v, e) -> e).join())
                .isInstanceOfSatisfying(CallNotPermittedException.class,
                        e -> assertThat(e.getStackTrace()).isNotEmpty());
        assertThat(plain.recentEvents()).extracting(GuardEvent::type).contains(Type.NOT_PERMITTED);
    }
}
