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
        assertThat(b.decorateSupplier(() -> 1).get()).isEqualTo(1);
        assertThat(b.decorateCallable(() -> 2).call()).isEqualTo(2);
        int[] ran = {0};
        b.decorateRunnable(() -> ran[0]++).run();
        assertThat(ran[0]).isEqualTo(1);
        assertThat(b.snapshot().calls()).isEqualTo(3);
        assertThat(b.snapshot().failedCalls()).isZero();
    }

    @Test
    void aResultMatchingTheResultPredicateIsAFailure() {
        CircuitBreaker b = breaker();
        assertThat(b.executeSupplier(() -> "DOWN")).isEqualTo("DOWN");
        assertThat(b.executeSupplier(() -> "DOWN")).isEqualTo("DOWN");
        assertThat(b.state()).isEqualTo(State.OPEN);
        assertThat(b.recentEvents()).filteredOn(e -> e.type() == Type.ERROR)
                .allSatisfy(e -> assertThat(e.details()).containsEntry("result", "java.lang.String"));
    }

    @Test
    void callDurationsAndEventTimesComeFromTheClock() {
        CircuitBreaker b = breaker();
        List<GuardEvent> heard = new ArrayList<>();
        b.addListener(heard::add);
        b.executeSupplier(() -> {
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
        b.executeSupplier(() -> "ok");
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
        assertThat(b.executeSupplier(() -> "ok")).isEqualTo("ok");
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
        CompletionStage<String> stage = b.decorateCompletionStage(() -> work).get();
        assertThat(b.snapshot().calls()).isZero();
        t.clock.advance(Duration.ofMillis(40));
        work.complete("ok");
        assertThat(stage.toCompletableFuture().join()).isEqualTo("ok");
        assertThat(b.snapshot().calls()).isEqualTo(1);
        assertThat(b.snapshot().averageDuration()).isEqualTo(Duration.ofMillis(40));
        b.decorateCompletionStage(() -> CompletableFuture.<String>failedFuture(new IllegalStateException("x"))).get();
        assertThat(b.snapshot().failedCalls()).isEqualTo(1);
    }

    @Test
    void aRefusedOrThrowingAsyncCallComesBackAsAFailedStage() {
        CircuitBreaker b = breaker();
        CompletionStage<String> thrown = b.<String>decorateCompletionStage(() -> {
            throw new IllegalStateException("before any stage");
        }).get();
        assertThatThrownBy(() -> thrown.toCompletableFuture().get()).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        CompletionStage<String> nullStage = b.<String>decorateCompletionStage(() -> null).get();
        assertThatThrownBy(() -> nullStage.toCompletableFuture().get()).hasCauseInstanceOf(NullPointerException.class);
        assertThat(b.state()).isEqualTo(State.OPEN);
        CompletionStage<String> refused = b.decorateCompletionStage(() -> CompletableFuture.completedFuture("x")).get();
        assertThatThrownBy(() -> refused.toCompletableFuture().get())
                .hasCauseInstanceOf(CallNotPermittedException.class);
    }

    @Test
    void aCancelledStageGivesItsHalfOpenPermitBack() {
        CircuitBreaker b = breaker();
        b.transitionToHalfOpenState();
        Supplier<CompletionStage<String>> call = b.decorateCompletionStage(CompletableFuture::new);
        CompletionStage<String> first = call.get();
        assertThat(b.tryAcquirePermission()).isFalse();
        first.toCompletableFuture().cancel(true);
        assertThat(b.state()).isEqualTo(State.HALF_OPEN);
        assertThat(b.tryAcquirePermission()).isTrue();
    }

    @Test
    void aCallAdmittedBeforeHalfOpenCannotHandHalfOpenAnExtraPermit() {
        CircuitBreaker b = breaker();
        CompletableFuture<String> admittedWhileClosed = new CompletableFuture<>();
        b.decorateCompletionStage(() -> admittedWhileClosed).get();
        b.transitionToHalfOpenState();
        assertThat(b.tryAcquirePermission()).isTrue(); // the only trial
        admittedWhileClosed.cancel(true);
        assertThat(b.tryAcquirePermission()).isFalse();
    }

    @Test
    void anIgnoredErrorOfACallAdmittedBeforeHalfOpenCannotHandHalfOpenAnExtraPermit() {
        CircuitBreaker b = t.registry.circuitBreaker("ignoring", breaker().config().toBuilder()
                .ignoreExceptions(List.of(IllegalArgumentException.class)).build());
        assertThatThrownBy(() -> b.executeRunnable(() -> {
            b.transitionToHalfOpenState();
            assertThat(b.tryAcquirePermission()).isTrue(); // the only trial, taken while this call runs
            throw new IllegalArgumentException("ignored");
        })).isInstanceOf(IllegalArgumentException.class);
        assertThat(b.tryAcquirePermission()).isFalse();
    }
}
