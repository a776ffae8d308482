package io.guard.spring.actuate;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import java.util.List;

/**
 * The {@code guardevents} actuator endpoint: what breakers and limiters did lately, newest first, from the bounded
 * per-breaker and per-limiter buffers ({@code guard.events.buffer-size}), so reading it costs the service nothing
 * and its memory never grows. The same events arrive live at {@code guardevents/stream}.
 */
@Endpoint(id = "guardevents")
public class GuardEventsEndpoint {

    private final GuardRegistries registries;

    GuardEventsEndpoint(GuardRegistries registries) {
        this.registries = registries;
    }

    /**
     * @param name  only events of the breaker or limiter with this name
     * @param type  only events of these types, comma-separated (e.g. {@code STATE_TRANSITION,RATE_LIMITED})
     * @param limit at most this many events (the newest)
     */
    // Spring's @Nullable, not JSpecify's: Boot 3.5 takes only this one as "optional parameter" (Boot 4 takes both).
    @SuppressWarnings("deprecation")
    @ReadOperation
    public GuardEvents events(@org.springframework.lang.Nullable String name,
            @org.springframework.lang.Nullable String type, @org.springframework.lang.Nullable Integer limit) {
        EventFilter filter;
        try {
            filter = EventFilter.of(name, type);
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidEndpointRequestException(ex.getMessage(), ex.getMessage());
        }
        if (limit != null && limit < 0) {
            String message = "'limit' must not be negative but was " + limit;
            throw new InvalidEndpointRequestException(message, message);
        }
        List<EventDescriptor> events = registries.recentEvents().stream()
                .filter(filter)
                .limit(limit == null ? Long.MAX_VALUE : limit)
                .map(EventDescriptor::of)
                .toList();
        return new GuardEvents(events);
    }

    /** @param events newest first */
    public record GuardEvents(List<EventDescriptor> events) {
    }
}
