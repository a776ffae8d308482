package io.guard.spring.web;

import io.guard.breaker.CallNotPermittedException;
import io.guard.bulkhead.BulkheadFullException;
import io.guard.breaker.State;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.spring.ratelimit.InvalidPermitsException;
import io.guard.spring.ratelimit.MissingRateLimitKeyException;
import io.guard.spring.ratelimit.RateLimitExceededException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * The RFC 9457 answers Guard gives over HTTP, the same for Spring MVC and WebFlux: 429 for a refused limit, 503 for
 * an open breaker or a limit whose backend failed closed, 400 for a limit key that is missing or for permits a limit
 * can never grant.
 */
final class ProblemAnswers {

    static final URI RATE_LIMITED = URI.create("urn:problem-type:guard:rate-limited");
    static final URI CIRCUIT_OPEN = URI.create("urn:problem-type:guard:circuit-open");
    static final URI BULKHEAD_FULL = URI.create("urn:problem-type:guard:bulkhead-full");
    static final URI BACKEND_UNAVAILABLE = URI.create("urn:problem-type:guard:rate-limit-backend-unavailable");
    static final URI MISSING_KEY = URI.create("urn:problem-type:guard:rate-limit-key-missing");
    static final URI INVALID_PERMITS = URI.create("urn:problem-type:guard:rate-limit-permits-invalid");

    private ProblemAnswers() {
    }

    /** Guard's answer to {@code error}, or empty when it is not one of Guard's refusals. */
    static Optional<ResponseEntity<ProblemDetail>> of(Throwable error, String path) {
        if (error instanceof RateLimitExceededException e) {
            return Optional.of(rateLimited(e, path));
        }
        if (error instanceof CallNotPermittedException e) {
            return Optional.of(circuitOpen(e, path));
        }
        if (error instanceof BulkheadFullException e) {
            return Optional.of(bulkheadFull(e, path));
        }
        if (error instanceof RateLimiterBackendException e) {
            return Optional.of(backendUnavailable(e, path));
        }
        if (error instanceof MissingRateLimitKeyException e) {
            return Optional.of(missingKey(e, path));
        }
        if (error instanceof InvalidPermitsException e) {
            return Optional.of(invalidPermits(e, path));
        }
        return Optional.empty();
    }

    /** The Guard refusal in {@code error}'s cause chain (frameworks wrap it), or null. */
    static Throwable refusal(Throwable error) {
        for (Throwable current = error; current != null; current = current.getCause()) {
            if (guardType(current).isPresent()) {
                return current;
            }
            if (current.getCause() == current) {
                break;
            }
        }
        return null;
    }

    /**
     * The Guard refusal type {@code error} is, or empty. Here and not in an MVC or WebFlux class: both stacks ask, and
     * either may be missing from the class path.
     */
    static Optional<Class<? extends Throwable>> guardType(Throwable error) {
        for (Class<? extends Throwable> type : List.of(RateLimitExceededException.class,
                CallNotPermittedException.class, BulkheadFullException.class, RateLimiterBackendException.class,
                MissingRateLimitKeyException.class, InvalidPermitsException.class)) {
            if (type.isInstance(error)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    static ResponseEntity<ProblemDetail> rateLimited(RateLimitExceededException e, String path) {
        ProblemDetail problem = problem(HttpStatus.TOO_MANY_REQUESTS, RATE_LIMITED, e.getMessage(), path);
        problem.setProperty("violated-policies", List.of(e.policyName()));
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
                .header(RateLimitHeaders.RETRY_AFTER,
                        Long.toString(RateLimitHeaders.retryAfterSeconds(e.decision().retryAfter())))
                .body(problem);
    }

    static ResponseEntity<ProblemDetail> circuitOpen(CallNotPermittedException e, String path) {
        ProblemDetail problem = problem(HttpStatus.SERVICE_UNAVAILABLE, CIRCUIT_OPEN, e.getMessage(), path);
        problem.setProperty("circuit-breaker", e.breakerName());
        problem.setProperty("state", e.state().name());
        HttpHeaders headers = new HttpHeaders();
        // FORCED_OPEN has no known end: no Retry-After rather than a made-up one.
        if (e.state() != State.FORCED_OPEN) {
            headers.set(RateLimitHeaders.RETRY_AFTER, Long.toString(RateLimitHeaders.retryAfterSeconds(e.retryAfter())));
        }
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).headers(headers).body(problem);
    }

    /** Like an open breaker, without Retry-After: when a running call ends is not known. */
    static ResponseEntity<ProblemDetail> bulkheadFull(BulkheadFullException e, String path) {
        ProblemDetail problem = problem(HttpStatus.SERVICE_UNAVAILABLE, BULKHEAD_FULL, e.getMessage(), path);
        problem.setProperty("bulkhead", e.bulkheadName());
        problem.setProperty("max-concurrent-calls", e.maxConcurrentCalls());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(problem);
    }

    static ResponseEntity<ProblemDetail> backendUnavailable(RateLimiterBackendException e, String path) {
        ProblemDetail problem = problem(HttpStatus.SERVICE_UNAVAILABLE, BACKEND_UNAVAILABLE,
                "The rate limit could not be checked and fails closed: " + e.getMessage(), path);
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(problem);
    }

    static ResponseEntity<ProblemDetail> missingKey(MissingRateLimitKeyException e, String path) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, MISSING_KEY, e.getMessage(), path);
        problem.setProperty("violated-policies", List.of(e.policyName()));
        return ResponseEntity.badRequest().body(problem);
    }

    static ResponseEntity<ProblemDetail> invalidPermits(InvalidPermitsException e, String path) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, INVALID_PERMITS, e.getMessage(), path);
        problem.setProperty("violated-policies", List.of(e.policyName()));
        return ResponseEntity.badRequest().body(problem);
    }

    private static ProblemDetail problem(HttpStatus status, URI type, String detail, String path) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type);
        problem.setTitle(status.getReasonPhrase());
        if (path != null) {
            problem.setInstance(URI.create(path));
        }
        return problem;
    }
}
