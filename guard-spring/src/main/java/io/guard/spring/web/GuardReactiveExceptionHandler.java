package io.guard.spring.web;

import io.guard.breaker.CallNotPermittedException;
import io.guard.bulkhead.BulkheadFullException;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.spring.ratelimit.InvalidPermitsException;
import io.guard.spring.ratelimit.MissingRateLimitKeyException;
import io.guard.spring.ratelimit.RateLimitExceededException;
import org.springframework.core.Ordered;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.server.ServerWebExchange;

/**
 * WebFlux answers for Guard's refusals raised in controllers (see {@link ProblemAnswers}); replace it by declaring a
 * bean of this type. The {@link GuardReactiveAdvice} beans call it: one per Guard exception type, each placed among
 * the application's {@code @ControllerAdvice} so that the application's own handler for that type wins and a
 * catch-all handler does not turn a 429 into a 500. Refusals raised outside controllers are answered by
 * {@link GuardWebExceptionHandler}.
 */
public class GuardReactiveExceptionHandler {

    /** Where Guard's answers stand among advice when the application maps none of Guard's exceptions. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

    public ResponseEntity<ProblemDetail> rateLimited(RateLimitExceededException e, ServerWebExchange exchange) {
        RateLimitDecisions decisions = RateLimitHeadersWebFilter.decisions(exchange);
        decisions.record(e.policy(), e.decision());
        decisions.writeTo(exchange.getResponse().getHeaders());
        return ProblemAnswers.rateLimited(e, path(exchange));
    }

    public ResponseEntity<ProblemDetail> circuitOpen(CallNotPermittedException e, ServerWebExchange exchange) {
        return ProblemAnswers.circuitOpen(e, path(exchange));
    }

    public ResponseEntity<ProblemDetail> bulkheadFull(BulkheadFullException e, ServerWebExchange exchange) {
        return ProblemAnswers.bulkheadFull(e, path(exchange));
    }

    public ResponseEntity<ProblemDetail> backendUnavailable(RateLimiterBackendException e,
                                                            ServerWebExchange exchange) {
        return ProblemAnswers.backendUnavailable(e, path(exchange));
    }

    public ResponseEntity<ProblemDetail> missingKey(MissingRateLimitKeyException e, ServerWebExchange exchange) {
        return ProblemAnswers.missingKey(e, path(exchange));
    }

    public ResponseEntity<ProblemDetail> invalidPermits(InvalidPermitsException e, ServerWebExchange exchange) {
        return ProblemAnswers.invalidPermits(e, path(exchange));
    }

    private static String path(ServerWebExchange exchange) {
        return exchange.getRequest().getPath().value();
    }
}
