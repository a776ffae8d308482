package io.guard.spring.web;

import io.guard.spring.ratelimit.RateLimitExceededException;
import org.springframework.core.Ordered;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.server.ServerWebExchange;

/**
 * WebFlux answers for Guard's refusals raised in controllers (see {@link RefusalAnswers}); replace it by declaring a
 * bean of this type. The {@link GuardReactiveAdvice} beans call it: one per Guard exception type, each placed among
 * the application's {@code @ControllerAdvice} so that the application's own handler for that type wins and a
 * catch-all handler does not turn a 429 into a 500. Refusals raised outside controllers are answered by
 * {@link GuardWebExceptionHandler}.
 */
public class GuardReactiveExceptionHandler {

    /** Where Guard's answers stand among advice when the application maps none of Guard's exceptions. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

    /**
     * The answer to {@code refusal}, one of Guard's refusal exceptions ({@link io.guard.refusal.Refusal}); a refused
     * limit also writes the exchange's RateLimit fields.
     *
     * @throws IllegalArgumentException when {@code refusal} is not one of Guard's refusals
     */
    public ResponseEntity<ProblemDetail> answer(Throwable refusal, ServerWebExchange exchange) {
        if (refusal instanceof RateLimitExceededException e) {
            RateLimitDecisions decisions = RateLimitHeadersWebFilter.decisions(exchange);
            decisions.record(e.policy(), e.decision());
            decisions.writeTo(exchange.getResponse().getHeaders());
        }
        return RefusalAnswers.of(refusal, exchange.getRequest().getPath().value()).orElseThrow(() ->
                new IllegalArgumentException("Not one of Guard's refusals: " + refusal, refusal));
    }
}
