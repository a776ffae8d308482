package io.guard.breaker;

import io.guard.event.GuardEvent;
import io.guard.event.GuardEvent.Type;
import io.guard.function.CheckedFunction;
import io.guard.function.CheckedSupplier;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import static io.guard.breaker.CircuitBreakerDecorators.decorateCheckedFunction;
import static io.guard.breaker.CircuitBreakerDecorators.decorateCheckedRunnable;
import static io.guard.breaker.CircuitBreakerDecorators.decorateCheckedSupplier;
import static io.guard.breaker.CircuitBreakerDecorators.decorateConsumer;
import static io.guard.breaker.CircuitBreakerDecorators.decorateFunction;
import static io.guard.breaker.CircuitBreakerDecorators.executeCheckedSupplier;
import static io.guard.breaker.CircuitBreakerDecorators.executeSupplier;
import static io.guard.breaker.TestBreakers.fail;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The parts of Resilience4j's API that migrated code calls, beyond the state machine itself. */
class ResilienceApiTest {

    private final TestBreakers t = new TestBreakers();

    private static CircuitBreakerConfig.Builder small() {
        return CircuitBreakerConfig.builder().slidingWindowSize(4).minimumNumberOfCalls(2)
                .permittedNumberOfCallsInHalfOpenState(1).waitDurationInOpenState(Duration.ofSeconds(10));
    }

    @Test
    void aBreakerCanStartOpen() {
        CircuitBreaker b = t.breaker(small().initialState(State.OPEN).build());
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.tryAcquire()).isNull();
        t.clock.advance(Duration.ofSeconds(10));
        assertThat(b.tryAcquire()).isNotNull();
        assertThat(b.state()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void aBreakerCanStartInAnyState() {
        for (State state : State.values()) {
            CircuitBreaker b = t.registry.circuitBreaker("start-" + state, small().initialState(state).build());
            assertThat(b.state()).isEqualTo(state);
        }
    }

    @Test
    void halfOpenCanCloseAfterItsMaximumWait() {
        CircuitBreaker b = t.breaker(small().maxWaitDurationInHalfOpenState(Duration.ofSeconds(5))
                .transitionToStateAfterWaitDuration(State.CLOSED).build());
        b.transitionToHalfOpenState();
        t.clock.advance(Duration.ofSeconds(5));
        assertThat(b.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void onlyOpenAndClosedMayFollowTheHalfOpenWait() {
        assertThatThrownBy(() -> small().transitionToStateAfterWaitDuration(State.DISABLED).build())
                .hasMessageContaining("transition-to-state-after-wait-duration must be OPEN or CLOSED but was DISABLED");
    }

    @Test
    void aRandomizedWaitStaysWithinItsFactorAndVaries() {
        CircuitBreakerConfig config = small().randomizedWaitFactor(0.5).build();
        Set<Duration> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            Duration wait = config.waitDurationInOpenState(1);
            assertThat(wait).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(15));
            seen.add(wait);
        }
        assertThat(seen).hasSizeGreaterThan(100);
        CircuitBreaker b = t.breaker(config);
        b.transitionToOpenState();
        assertThat(b.remainingOpenTime()).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(15));
    }

    @Test
    void theRandomizedWaitFactorMustBeBelowOne() {
        assertThatThrownBy(() -> small().randomizedWaitFactor(1).build())
                .hasMessageContaining("randomized-wait-factor must be in [0, 1) but was 1.0");
    }

    @Test
    void aCustomWaitFunctionDecidesEachOpening() {
        CircuitBreaker b = t.breaker(small().waitIntervalFunctionInOpenState(n -> Duration.ofSeconds(n * 3L)).build());
        fail(b, 2);
        assertThat(b.remainingOpenTime()).isEqualTo(Duration.ofSeconds(3));
        t.clock.advance(Duration.ofSeconds(3));
        fail(b, 1); // the trial fails: second consecutive opening
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.remainingOpenTime()).isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void aResultCanOpenTheBreakerForTheWaitItNames() {
        CircuitBreaker b = t.breaker(small().transitionOnResult((result, error) -> "RETRY_IN_30S".equals(result)
                ? TransitionCheck.transitionToOpenAndWaitFor(Duration.ofSeconds(30))
                : TransitionCheck.noTransition()).build());
        assertThat(executeSupplier(b, () -> "ok")).isEqualTo("ok");
        assertThat(b.state()).isEqualTo(State.CLOSED);
        assertThat(executeSupplier(b, () -> "RETRY_IN_30S")).isEqualTo("RETRY_IN_30S");
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.remainingOpenTime()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void anErrorCanOpenTheBreakerUntilAnInstant() {
        CircuitBreaker b = t.breaker(small().transitionOnResult((result, error) -> error instanceof IOException
                ? TransitionCheck.transitionToOpenAndWaitUntil(t.clock.instant().plusSeconds(42))
                : TransitionCheck.noTransition()).build());
        assertThatThrownBy(() -> executeCheckedSupplier(b, () -> {
            throw new IOException("quota exhausted");
        })).isInstanceOf(IOException.class);
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.remainingOpenTime()).isEqualTo(Duration.ofSeconds(42));
    }

    @Test
    void aThrowingTransitionCheckMeansNoTransition() {
        CircuitBreaker b = t.breaker(small().transitionOnResult((result, error) -> {
            throw new IllegalStateException("buggy check");
        }).build());
        assertThat(executeSupplier(b, () -> "ok")).isEqualTo("ok");
        assertThat(b.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void openForAndUntilOverrideTheConfiguredWait() {
        CircuitBreaker b = t.breaker(small().build());
        b.transitionToOpenStateFor(Duration.ofSeconds(3));
        assertThat(b.remainingOpenTime()).isEqualTo(Duration.ofSeconds(3));
        b.transitionToOpenStateUntil(t.clock.instant().plusSeconds(90)); // from OPEN: the wait restarts
        assertThat(b.remainingOpenTime()).isEqualTo(Duration.ofSeconds(90));
        t.clock.advance(Duration.ofSeconds(90));
        assertThat(b.tryAcquire()).isNotNull();
        assertThat(b.state()).isEqualTo(State.HALF_OPEN);
    }

    @Test
    void aBreakerNeedsNoRegistry() {
        ManualClock clock = new ManualClock();
        CircuitBreaker b = CircuitBreaker.of("alone", small().automaticTransitionFromOpenToHalfOpenEnabled(true)
                .build(), clock, clock);
        fail(b, 2);
        assertThat(b.state()).isEqualTo(State.OPEN);
        clock.advance(Duration.ofSeconds(10));
        assertThat(b.state()).isEqualTo(State.HALF_OPEN);
        assertThat(CircuitBreaker.ofDefaults("defaults").config()).isEqualTo(CircuitBreakerConfig.ofDefaults());
        assertThatThrownBy(() -> CircuitBreaker.ofDefaults(" ")).hasMessageContaining("must not be blank");
    }

    @Test
    void theCombinedPredicatesJoinTypesAndPredicates() {
        CircuitBreakerConfig config = CircuitBreakerConfig.builder()
                .recordExceptions(List.of(IOException.class)).recordException(e -> "record".equals(e.getMessage()))
                .ignoreExceptions(List.of(IllegalArgumentException.class))
                .ignoreException(e -> "ignore".equals(e.getMessage())).build();
        assertThat(config.effectiveRecordExceptionPredicate())
                .accepts(new IOException("x"), new IllegalStateException("record"))
                .rejects(new IllegalStateException("x"));
        assertThat(config.effectiveIgnoreExceptionPredicate())
                .accepts(new IllegalArgumentException("x"), new IllegalStateException("ignore"))
                .rejects(new IOException("x"));
        assertThat(CircuitBreakerConfig.ofDefaults().effectiveRecordExceptionPredicate())
                .accepts(new IllegalStateException(), new OutOfMemoryError());
    }

    @Test
    void functionConsumerAndCheckedDecoratorsRecordTheirCalls() throws Throwable {
        CircuitBreaker b = t.breaker(CircuitBreakerConfig.builder().slidingWindowSize(10).build());
        Function<Integer, Integer> twice = decorateFunction(b, x -> x * 2);
        assertThat(twice.apply(21)).isEqualTo(42);
        List<String> seen = new ArrayList<>();
        Consumer<String> consumer = decorateConsumer(b, seen::add);
        consumer.accept("a");
        assertThat(seen).containsExactly("a");
        CheckedFunction<String, Integer> parse = decorateCheckedFunction(b, Integer::parseInt);
        assertThat(parse.apply("7")).isEqualTo(7);
        CheckedSupplier<String> checked = decorateCheckedSupplier(b, () -> {
            throw new IOException("checked");
        });
        assertThatThrownBy(checked::get).isInstanceOf(IOException.class);
        int[] ran = {0};
        decorateCheckedRunnable(b, () -> ran[0]++).run();
        assertThat(ran[0]).isEqualTo(1);
        assertThat(b.snapshot().calls()).isEqualTo(5);
        assertThat(b.snapshot().failedCalls()).isEqualTo(1);
    }

    @Test
    void aResetFromOpenPublishesTheTransitionToClosedThenTheReset() {
        CircuitBreaker b = t.breaker(small().build());
        fail(b, 2);
        List<GuardEvent> heard = new ArrayList<>();
        b.addListener(heard::add);
        b.reset();
        assertThat(heard).extracting(GuardEvent::type).containsExactly(Type.STATE_TRANSITION, Type.RESET);
        assertThat(heard.get(0).details()).containsEntry("from", "OPEN").containsEntry("to", "CLOSED");
        heard.clear();
        b.reset(); // from CLOSED: no transition to report
        assertThat(heard).extracting(GuardEvent::type).containsExactly(Type.RESET);
    }
}
