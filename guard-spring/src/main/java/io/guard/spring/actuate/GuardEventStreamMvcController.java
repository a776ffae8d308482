package io.guard.spring.actuate;

import io.guard.event.GuardEvent;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET <actuator base path>/guardevents/stream} on Spring MVC: the events of {@code guardevents}, live, as
 * server-sent events. Each event is one {@code data:} line of JSON shaped like an entry of {@code guardevents}.
 * Registered by {@link GuardEndpointAutoConfiguration} only when {@code guardevents} is exposed over HTTP.
 */
@RestController
class GuardEventStreamMvcController {

    private final GuardEventStream stream;
    private final Duration timeout;

    GuardEventStreamMvcController(GuardEventStream stream, Duration timeout) {
        this.stream = stream;
        this.timeout = timeout;
    }

    @GetMapping(path = GuardEventStreamProperties.PATH, produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    ResponseEntity<?> stream(@RequestParam(required = false) @Nullable String name,
                             @RequestParam(required = false) @Nullable String type) {
        EventFilter filter;
        try {
            filter = EventFilter.of(name, type);
        }
        catch (IllegalArgumentException ex) {
            return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_JSON)
                    .body(Map.of("error", ex.getMessage()));
        }
        SseEmitter emitter = new SseEmitter(timeout.toMillis());
        Optional<EventSubscription> subscription = stream.subscribe(filter, event -> send(emitter, event),
                emitter::complete);
        if (subscription.isEmpty()) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).contentType(MediaType.APPLICATION_JSON)
                    .body(Map.of("error", "Too many guardevents/stream clients; "
                            + "see management.endpoint.guardevents.stream.max-subscribers"));
        }
        EventSubscription s = subscription.get();
        emitter.onCompletion(s::close);
        emitter.onTimeout(s::close);
        emitter.onError(error -> s.close());
        try {
            // Tells the client it is connected and makes the container send the headers now.
            emitter.send(SseEmitter.event().comment("connected"));
        }
        catch (Exception ex) {
            s.close();
        }
        return ResponseEntity.ok().contentType(MediaType.TEXT_EVENT_STREAM).body(emitter);
    }

    private static void send(SseEmitter emitter, GuardEvent event) throws Exception {
        emitter.send(SseEmitter.event().data(EventDescriptor.of(event), MediaType.APPLICATION_JSON));
    }
}
