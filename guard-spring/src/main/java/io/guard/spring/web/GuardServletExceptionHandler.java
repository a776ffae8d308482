package io.guard.spring.web;

import io.guard.breaker.CallNotPermittedException;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.spring.aop.InvalidPermitsException;
import io.guard.spring.aop.MissingRateLimitKeyException;
import io.guard.spring.aop.RateLimitExceededException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Spring MVC answers for Guard's refusals (see {@link ProblemAnswers}). Ordered ahead of ordinary advice, so that an
 * application's catch-all {@code @ExceptionHandler(Exception.class)} does not turn a 429 into a 500; replace it by
 * declaring a bean of this type.
 */
@RestControllerAdvice
@Order(GuardServletExceptionHandler.ORDER)
public class GuardServletExceptionHandler {

    /** Well ahead of unordered advice (lowest precedence), leaving room for users who must go first. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

    @ExceptionHandler(RateLimitExceededException.class)
    public ResponseEntity<ProblemDetail> rateLimited(RateLimitExceededException e, HttpServletRequest request,
                                                     HttpServletResponse response) {
        // Recording (again) sets the RateLimit fields on the response, whatever happened to it since.
        ServletRateLimitDecisionSinks.decisions(request, response).record(e.policy(), e.decision());
        return ProblemAnswers.rateLimited(e, request.getRequestURI());
    }

    @ExceptionHandler(CallNotPermittedException.class)
    public ResponseEntity<ProblemDetail> circuitOpen(CallNotPermittedException e, HttpServletRequest request) {
        return ProblemAnswers.circuitOpen(e, request.getRequestURI());
    }

    @ExceptionHandler(RateLimiterBackendException.class)
    public ResponseEntity<ProblemDetail> backendUnavailable(RateLimiterBackendException e,
                                                            HttpServletRequest request) {
        return ProblemAnswers.backendUnavailable(e, request.getRequestURI());
    }

    @ExceptionHandler(MissingRateLimitKeyException.class)
    public ResponseEntity<ProblemDetail> missingKey(MissingRateLimitKeyException e, HttpServletRequest request) {
        return ProblemAnswers.missingKey(e, request.getRequestURI());
    }

    @ExceptionHandler(InvalidPermitsException.class)
    public ResponseEntity<ProblemDetail> invalidPermits(InvalidPermitsException e, HttpServletRequest request) {
        return ProblemAnswers.invalidPermits(e, request.getRequestURI());
    }
}
