package io.guard.spring.web;

import io.guard.breaker.CallNotPermittedException;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.spring.aop.InvalidPermitsException;
import io.guard.spring.aop.MissingRateLimitKeyException;
import io.guard.spring.aop.RateLimitExceededException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ServerWebExchange;

/**
 * WebFlux answers for Guard's refusals (see {@link ProblemAnswers}). Ordered ahead of ordinary advice so that an
 * application's catch-all handler does not swallow a 429; replace it by declaring a bean of this type.
 */
@RestControllerAdvice
@Order(GuardReactiveExceptionHandler.ORDER)
public class GuardReactiveExceptionHandler {

    /** Well ahead of unordered advice (lowest precedence), leaving room for users who must go first. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

    @ExceptionHandler(RateLimitExceededException.class)
    public ResponseEntity<ProblemDetail> rateLimited(RateLimitExceededException e, ServerWebExchange exchange) {
        RateLimitDecisions decisions = RateLimitHeadersWebFilter.decisions(exchange);
        decisions.record(e.policy(), e.decision());
        decisions.writeTo(exchange.getResponse().getHeaders());
        return ProblemAnswers.rateLimited(e, path(exchange));
    }

    @ExceptionHandler(CallNotPermittedException.class)
    public ResponseEntity<ProblemDetail> circuitOpen(CallNotPermittedException e, ServerWebExchange exchange) {
        return ProblemAnswers.circuitOpen(e, path(exchange));
    }

    @ExceptionHandler(RateLimiterBackendException.class)
    public ResponseEntity<ProblemDetail> backendUnavailable(RateLimiterBackendException e,
                                                            ServerWebExchange exchange) {
        return ProblemAnswers.backendUnavailable(e, path(exchange));
    }

    @ExceptionHandler(MissingRateLimitKeyException.class)
    public ResponseEntity<ProblemDetail> missingKey(MissingRateLimitKeyException e, ServerWebExchange exchange) {
        return ProblemAnswers.missingKey(e, path(exchange));
    }

    @ExceptionHandler(InvalidPermitsException.class)
    public ResponseEntity<ProblemDetail> invalidPermits(InvalidPermitsException e, ServerWebExchange exchange) {
        return ProblemAnswers.invalidPermits(e, path(exchange));
    }

    private static String path(ServerWebExchange exchange) {
        return exchange.getRequest().getPath().value();
    }
}
