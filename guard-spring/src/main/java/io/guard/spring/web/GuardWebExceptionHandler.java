package io.guard.spring.web;

import io.guard.spring.ratelimit.RateLimitExceededException;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * WebFlux answers for refusals that never pass through a controller's exception handling: a {@code WebFilter} that
 * throttles logins, say. Without it such a refusal reaches Spring Boot's error handler and answers 500; with it the
 * answer is the same 429/503/400 problem detail, RateLimit fields and Retry-After as a refusal in a controller.
 * Ordered ahead of Spring Boot's {@code DefaultErrorWebExceptionHandler} (-1), to which it hands browsers (Accept
 * prefers {@code text/html}, also for refusals in controllers): they get the application's error page for the status,
 * with the same {@code Retry-After} and RateLimit fields. Replace it by declaring a bean of this type.
 */
public class GuardWebExceptionHandler implements WebExceptionHandler, Ordered {

    /** Just ahead of Spring Boot's error handler (-1). */
    public static final int ORDER = -2;

    private final Supplier<List<HttpMessageWriter<?>>> writers;

    /** @param writers the codecs that write problem details (the application's own, so the JSON is the same) */
    public GuardWebExceptionHandler(Supplier<List<HttpMessageWriter<?>>> writers) {
        this.writers = writers;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
        Throwable refusal = RefusalAnswers.refusal(error);
        ServerHttpResponse response = exchange.getResponse();
        if (refusal == null || response.isCommitted()) {
            return Mono.error(error);
        }
        Optional<ResponseEntity<ProblemDetail>> answer =
                RefusalAnswers.of(refusal, exchange.getRequest().getPath().value());
        if (answer.isEmpty()) {
            return Mono.error(error);
        }
        HttpStatusCode status = answer.get().getStatusCode();
        response.setStatusCode(status);
        // set/add, not putAll: HttpHeaders is a Map on Framework 6.2 and not on 7, so putAll differs in binary form.
        answer.get().getHeaders().forEach((name, values) -> {
            response.getHeaders().set(name, values.get(0));
            values.stream().skip(1).forEach(value -> response.getHeaders().add(name, value));
        });
        if (refusal instanceof RateLimitExceededException e) {
            RateLimitDecisions decisions = RateLimitHeadersWebFilter.decisions(exchange);
            decisions.record(e.policy(), e.decision());
            decisions.writeTo(response.getHeaders());
        }
        if (HtmlClients.prefersHtml(exchange.getRequest().getHeaders().getValuesAsList(HttpHeaders.ACCEPT))) {
            // Spring Boot's error handler (next in the chain) renders the application's error page for the status.
            return Mono.error(new ResponseStatusException(status, answer.get().getBody().getDetail(), refusal));
        }
        return write(answer.get().getBody(), exchange);
    }

    @SuppressWarnings("unchecked")
    private Mono<Void> write(ProblemDetail body, ServerWebExchange exchange) {
        ResolvableType type = ResolvableType.forClass(ProblemDetail.class);
        for (MediaType mediaType : List.of(MediaType.APPLICATION_PROBLEM_JSON, MediaType.APPLICATION_JSON)) {
            for (HttpMessageWriter<?> writer : writers.get()) {
                if (writer.canWrite(type, mediaType)) {
                    return ((HttpMessageWriter<ProblemDetail>) writer).write(Mono.just(body), type, mediaType,
                            exchange.getResponse(), Map.of());
                }
            }
        }
        // No JSON codec at all: the status and headers still say what happened.
        ServerHttpResponse response = exchange.getResponse();
        response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
        return response.writeWith(Mono.just(response.bufferFactory()
                .wrap(String.valueOf(body.getDetail()).getBytes(StandardCharsets.UTF_8))));
    }
}
