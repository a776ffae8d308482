package io.guard.breaker;

import io.guard.event.GuardEvent;
import io.guard.event.GuardEvent.Type;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

import static io.guard.breaker.CircuitBreakerDecorators.decorateCallable;
import static io.guard.breaker.CircuitBreakerDecorators.decorateCompletionStage;
import static io.guard.breaker.CircuitBreakerDecorators.decorateRunnable;
import static io.guard.breaker.CircuitBreakerDecorators.decorateSupplier;
import static io.guard.breaker.CircuitBreakerDecorators.executeRunnable;
import static io.guard.breaker.CircuitBreakerDecorators.executeSupplier;
import static io.guard.breaker.TestBreakers.fail;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecoratorsAndEventsTest {

    private final TestBreakers t = new TestBreakers();

    private CircuitBreaker breaker() {
        return t.breaker(CircuitBreakerConfig.builder().slidingWindowSize(10).minimumNumberOfCalls(2)
                .permittedNumberOfCallsInHalfOpenState(1).recordResult("DOWN"::equals).build());
    }

    @Test
    void decoratorsPassResultsThroughAndRecordThem() throws Exception {
        CircuitBreaker b = breaker();
        assertThat(decorateSupplier(b, () -> 1).get()).isEqualTo(1);
        assertThat(decorateCallable(b, () -> 2).call()).isEqualTo(2);
        int[] ran = {0};
        decorateRunnable(b, () -> ran[0]++).run();
        assertThat(ran[0]).isEqualTo(1);
        assertThat(b.snapshot().calls()).isEqualTo(3);
        assertThat(b.snapshot().failedCalls()).isZero();
    }

    @Test
    void aResultMatchingTheResultPredicateIsAFailure() {
        CircuitBreaker b = breaker();
        assertThat(executeSupplier(b, () -> "DOWN")).isEqualTo("DOWN");
        assertThat(executeSupplier(b, () -> "DOWN")).isEqualTo("DOWN");
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.recentEvents()).filteredOn(e -> e.type() == Type.ERROR)
                .allSatisfy(e -> assertThat(e.details()).containsEntry("result", "java.lang.String"));
    }

    @Test
    void callDurationsAndEventTimesComeFromTheClock() {
        CircuitBreaker b = breaker();
        List<GuardEvent> heard = new ArrayList<>();
        b.addListener(heard::add);
        executeSupplier(b, () -> {
            t.clock.advance(Duration.ofMillis(1500));
            return "ok";
        });
        assertThat(heard).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(Type.SUCCESS);
            assertThat(e.duration()).isEqualTo(Duration.ofMillis(1500));
            assertThat(e.time()).isEqualTo(t.clock.instant());
        });
        assertThat(b.snapshot().averageDuration()).isEqualTo(Duration.ofMillis(1500));
        assertThat(b.currentTimeNanos()).isEqualTo(t.clock.nanoTime());
    }

    @Test
    void successesGoToListenersButNotToTheBuffer() {
        CircuitBreaker b = breaker();
        List<GuardEvent> heard = new ArrayList<>();
        b.addListener(heard::add);
        executeSupplier(b, () -> "ok");
        assertThat(heard).extracting(GuardEvent::type).containsExactly(Type.SUCCESS);
        assertThat(b.recentEvents()).isEmpty();
    }

    @Test
    void aThrowingListenerDisturbsNeitherTheCallNorTheRecording() {
        CircuitBreaker b = breaker();
        b.addListener(e -> {
            throw new IllegalStateException("bad listener");
        });
        b.addListener(e -> {
            throw new OutOfMemoryError("simulated listener error");
        });
        assertThat(executeSupplier(b, () -> "ok")).isEqualTo("ok");
        fail(b, 1); // 1 of 2 = 50%
        assertThat(b.state()).isEqualTo(State.OPEN);
    }

    @Test
    void theEventBufferIsBoundedNewestFirst() {
        CircuitBreaker b = CircuitBreakerRegistry.builder().eventBufferSize(3).clock(t.clock).scheduler(t.clock)
                .build().circuitBreaker("small");
        fail(b, 5);
        assertThat(b.recentEvents()).hasSize(3).extracting(GuardEvent::type).containsOnly(Type.ERROR);
    }

    @Test
    void completionStagesAreRecordedWhenTheyComplete() {
        CircuitBreaker b = breaker();
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletionStage<String> stage = decorateCompletionStage(b, () -> work).get();
        assertThat(b.snapshot().calls()).isZero();
        t.clock.advance(Duration.ofMillis(40));
        work.complete("ok");
        assertThat(stage.toCompletableFuture().join()).isEqualTo("ok");
        assertThat(b.snapshot().calls()).isEqualTo(1);
        assertThat(b.snapshot().averageDuration()).isEqualTo(Duration.ofMillis(40));
        decorateCompletionStage(b, () -> CompletableFuture.<String>failedFuture(new IllegalStateException("x"))).get();
        assertThat(b.snapshot().failedCalls()).isEqualTo(1);
    }

    @Test
    void aRefusedOrThrowingAsyncCallComesBackAsAFailedStage() {
        CircuitBreaker b = breaker();
        CompletionStage<String> thrown = CircuitBreakerDecorators.<String>decorateCompletionStage(b, () -> {
            throw new IllegalStateException("before any stage");
        }).get();
        assertThatThrownBy(() -> thrown.toCompletableFuture().get()).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        CompletionStage<String> nullStage = CircuitBreakerDecorators.<String>decorateCompletionStage(b, () -> null).get();
        assertThatThrownBy(() -> nullStage.toCompletableFuture().get()).hasCauseInstanceOf(NullPointerException.class);
        assertThat(b.state()).isEqualTo(State.OPEN);
        CompletionStage<String> refused = decorateCompletionStage(b, () -> CompletableFuture.completedFuture("x")).get();
        assertThatThrownBy(() -> refused.toCompletableFuture().get())
                .hasCauseInstanceOf(CallNotPermittedException.class);
    }

    @Test
    void aCancelledStageGivesItsHalfOpenPermitBack() {
        CircuitBreaker b = breaker();
        CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(b);
        b.transitionToHalfOpenState();
        Supplier<CompletionStage<String>> call = decorateCompletionStage(b, CompletableFuture::new);
        CompletionStage<String> first = call.get();
        assertThat(permissions.tryAcquirePermission()).isFalse();
        first.toCompletableFuture().cancel(true);
        assertThat(b.state()).isEqualTo(State.HALF_OPEN);
        assertThat(permissions.tryAcquirePermission()).isTrue();
    }

    @Test
    void aCallAdmittedBeforeHalfOpenCannotHandHalfOpenAnExtraPermit() {
        CircuitBreaker b = breaker();
        CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(b);
        CompletableFuture<String> admittedWhileClosed = new CompletableFuture<>();
        decorateCompletionStage(b, () -> admittedWhileClosed).get();
        b.transitionToHalfOpenState();
        assertThat(permissions.tryAcquirePermission()).isTrue(); // the only trial
        admittedWhileClosed.cancel(true);
        assertThat(permissions.tryAcquirePermission()).isFalse();
    }

    @Test
    void anIgnoredErrorOfACallAdmittedBeforeHalfOpenCannotHandHalfOpenAnExtraPermit() {
        CircuitBreaker b = t.registry.circuitBreaker("ignoring", breaker().config().toBuilder()
                .ignoreExceptions(List.of(IllegalArgumentException.class)).build());
        CircuitBreakerPermissions permissions = CircuitBreakerPermissions.of(b);
        assertThatThrownBy(() -> executeRunnable(b, () -> {
            b.transitionToHalfOpenState();
            assertThat(permissions.tryAcquirePermission()).isTrue(); // the only trial, taken while this call runs
            throw new IllegalArgumentException("ignored");
        })).isInstanceOf(IllegalArgumentException.class);
        assertThat(permissions.tryAcquirePermission()).isFalse();
    }
}
