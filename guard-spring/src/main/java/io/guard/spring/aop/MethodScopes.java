package io.guard.spring.aop;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoOperator;

/**
 * Closes the observation scopes that a guarded reactive method's body, or its fallback, opened and left open on the
 * thread it ran on. Guard runs such a body when the caller subscribes, inside the thread-local restore that Reactor's
 * automatic context propagation wraps around each signal; a scope left open there sits between the scope Reactor
 * opened and the one it restores, and Micrometer's {@code ObservationThreadLocalAccessor} warns on every such restore
 * (issue 32 item 5). Unguarded, the same body runs at assembly, where no restore follows it. Only scopes stacked on
 * the one current before the body ran are closed, newest first, as the body itself should have.
 *
 * <p>Internal: public only because Guard's route filter ({@code io.guard.spring.web}) uses it; not an API.
 */
public final class MethodScopes {

    /**
     * Reads and moves the thread's current scope, which Micrometer keeps per thread for every registry (one static
     * thread local in {@code SimpleObservationRegistry}): the application's registry is not needed for that, and
     * neither is context-propagation's {@code ObservationThreadLocalAccessor}, which may be absent.
     */
    private static final ObservationRegistry THREAD_SCOPES = ObservationRegistry.create();

    private MethodScopes() {
    }

    /** The observation scope current on this thread now, to pass to {@link #closeOpenedSince} after the body. */
    static Observation.Scope current() {
        return THREAD_SCOPES.getCurrentObservationScope();
    }

    /**
     * {@code source}, each subscription of which closes the scopes left open while subscribing: WebFlux runs the
     * handler there, when the rest of a filter chain is subscribed after Guard's decision.
     */
    public static <T> Mono<T> closedAfterSubscribing(Mono<T> source) {
        return new MonoOperator<T, T>(source) {
            @Override
            public void subscribe(CoreSubscriber<? super T> actual) {
                Observation.Scope before = current();
                try {
                    source.subscribe(actual);
                } finally {
                    closeOpenedSince(before);
                }
            }
        };
    }

    /** Closes the scopes opened on this thread on top of {@code before} and still open, newest first. */
    static void closeOpenedSince(Observation.Scope before) {
        Observation.Scope current = THREAD_SCOPES.getCurrentObservationScope();
        while (current != null && current != before && stackedOn(current, before)) {
            current.close();
            Observation.Scope next = THREAD_SCOPES.getCurrentObservationScope();
            if (next == current) {
                return; // a scope that does not give way: leave it rather than loop
            }
            current = next;
        }
    }

    /** Whether {@code before} (null: none) is below {@code scope}: the body opened it, it did not close too many. */
    private static boolean stackedOn(Observation.Scope scope, Observation.Scope before) {
        for (Observation.Scope previous = scope.getPreviousObservationScope(); previous != null;
             previous = previous.getPreviousObservationScope()) {
            if (previous == before) {
                return true;
            }
        }
        return before == null;
    }
}
