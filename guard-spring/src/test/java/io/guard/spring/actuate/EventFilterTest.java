package io.guard.spring.actuate;

import io.guard.event.GuardEvent;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class EventFilterTest {

    private static GuardEvent event(String name, GuardEvent.Type type) {
        return new GuardEvent(GuardEvent.Source.RATE_LIMITER, name, type, Instant.EPOCH, null, Map.of());
    }

    @Test
    void matchesByNameAndAnyOfSeveralTypesIgnoringCase() {
        EventFilter filter = EventFilter.of("orders", "rate_limited, BACKEND_FAILURE");

        assertThat(filter.test(event("orders", GuardEvent.Type.RATE_LIMITED))).isTrue();
        assertThat(filter.test(event("orders", GuardEvent.Type.BACKEND_FAILURE))).isTrue();
        assertThat(filter.test(event("orders", GuardEvent.Type.SUCCESS))).isFalse();
        assertThat(filter.test(event("payment", GuardEvent.Type.RATE_LIMITED))).isFalse();
    }

    @Test
    void blankParametersMatchEverything() {
        EventFilter filter = EventFilter.of("", " ");

        assertThat(filter.test(event("any", GuardEvent.Type.RESET))).isTrue();
    }

    @Test
    void anUnknownTypeIsNamedInTheError() {
        assertThatIllegalArgumentException().isThrownBy(() -> EventFilter.of(null, "STATE_TRANSITION,OPENED"))
                .withMessageStartingWith("Unknown event type 'OPENED'; expected one of SUCCESS, ERROR");
    }
}
