package io.guard.spring.aop;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link MethodScopes} closes after a reactive body ran: only the scopes it opened on top and left open. */
class MethodScopesTest {

    private final ObservationRegistry registry = ObservationRegistry.create();
    private Observation request;
    private Observation.Scope requestScope;

    @BeforeEach
    void requestObserved() {
        registry.observationConfig().observationHandler(context -> true);
        request = Observation.start("http.server.requests", registry);
        requestScope = request.openScope();
    }

    @AfterEach
    void requestEnds() {
        while (registry.getCurrentObservationScope() != null) {
            registry.getCurrentObservationScope().close();
        }
        request.stop();
    }

    @Test
    void scopesTheBodyLeftOpenAreClosedNewestFirstDownToTheOneBefore() {
        Observation.Scope before = MethodScopes.current();
        Observation call = Observation.start("call", registry);
        call.openScope();
        request.openScope();

        MethodScopes.closeOpenedSince(before);

        assertThat(registry.getCurrentObservationScope()).isSameAs(requestScope);
        assertThat(registry.getCurrentObservation()).isSameAs(request);
        call.stop();
    }

    @Test
    void aBodyThatClosedItsScopesIsLeftAsItIs() {
        Observation.Scope before = MethodScopes.current();
        try (Observation.Scope closed = Observation.start("call", registry).openScope()) {
            assertThat(registry.getCurrentObservationScope()).isSameAs(closed);
        }

        MethodScopes.closeOpenedSince(before);

        assertThat(registry.getCurrentObservationScope()).isSameAs(requestScope);
    }

    @Test
    void aBodyThatClosedTheScopeBeforeItIsNotChasedFurther() {
        Observation.Scope before = MethodScopes.current();
        requestScope.close();
        Observation.Scope other = Observation.start("other", registry).openScope();

        MethodScopes.closeOpenedSince(before);

        assertThat(registry.getCurrentObservationScope()).isSameAs(other);
        other.close();
    }

    @Test
    void withoutAScopeBeforeEveryScopeTheBodyOpenedIsClosed() {
        requestScope.close();
        Observation.Scope before = MethodScopes.current();
        request.openScope();
        request.openScope();

        MethodScopes.closeOpenedSince(before);

        assertThat(before).isNull();
        assertThat(registry.getCurrentObservationScope()).isNull();
    }
}
