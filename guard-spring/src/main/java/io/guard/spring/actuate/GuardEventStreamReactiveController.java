package io.guard.spring.actuate;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.BufferOverflowStrategy;
import reactor.core.publisher.Flux;

import java.util.Optional;

/**
 * {@code GET <actuator base path>/guardevents/stream} on WebFlux: the same server-sent events as the MVC stream.
 * The writes happen on the stream's own threads and a client's backlog is bounded, so a slow client drops its
 * own newest events and never holds up the service.
 */
@RestController
class GuardEventStreamReactiveController {

    private final GuardEventStream stream;
    private final int queueSize;

    GuardEventStreamReactiveController(GuardEventStream stream, int queueSize) {
        this.stream = stream;
        this.queueSize = queueSize;
    }

    @GetMapping(path = GuardEventStreamProperties.PATH, produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    Flux<ServerSentEvent<Object>> stream(@RequestParam(required = false) @Nullable String name,
                                         @RequestParam(required = false) @Nullable String type) {
        EventFilter filter;
        try {
            filter = EventFilter.of(name, type);
        }
        catch (IllegalArgumentException ex) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, ex.getMessage());
        }
        return Flux.<ServerSentEvent<Object>>create(sink -> {
            Optional<EventSubscription> subscription = stream.subscribe(filter,
                    event -> sink.next(ServerSentEvent.builder((Object) EventDescriptor.of(event)).build()),
                    sink::complete);
            if (subscription.isEmpty()) {
                sink.error(new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE,
                        "Too many guardevents/stream clients; "
                                + "see management.endpoint.guardevents.stream.max-subscribers"));
                return;
            }
            sink.onDispose(subscription.get()::close);
            sink.next(ServerSentEvent.builder().comment("connected").build());
        }).onBackpressureBuffer(queueSize, dropped -> { }, BufferOverflowStrategy.DROP_LATEST);
    }
}
