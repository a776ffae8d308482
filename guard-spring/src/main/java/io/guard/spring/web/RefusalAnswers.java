package io.guard.spring.web;

import io.guard.breaker.CallNotPermittedException;
import io.guard.bulkhead.BulkheadFullException;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.refusal.Refusal;
import io.guard.refusal.RefusalKind;
import io.guard.spring.ratelimit.InvalidPermitsException;
import io.guard.spring.ratelimit.MissingRateLimitKeyException;
import io.guard.spring.ratelimit.RateLimitExceededException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import java.net.URI;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The one table of Guard's RFC 9457 answers over HTTP, the same for Spring MVC, WebFlux and the route filters: for
 * each {@link RefusalKind} its exception type, status, problem type and extension members; the title is the status's
 * reason phrase and {@code Retry-After} is the refusal's {@link Refusal#retryAfterHint() hint}. 429 for a refused
 * limit, 503 for an open breaker, a full bulkhead or a limit whose backend failed closed, 400 for a limit key that is
 * missing or for permits a limit can never grant. It loads neither Spring MVC nor WebFlux: either may be absent.
 */
final class RefusalAnswers {

    /** One kind's answer. {@code type} is what an application's {@code @ExceptionHandler} names to answer it itself. */
    private record Row(Class<? extends Throwable> type, HttpStatus status, URI problemType,
                       Function<Throwable, String> detail, BiConsumer<Throwable, ProblemDetail> members) {
    }

    private static final Map<RefusalKind, Row> TABLE = table();

    private static Map<RefusalKind, Row> table() {
        Map<RefusalKind, Row> table = new EnumMap<>(RefusalKind.class);
        table.put(RefusalKind.RATE_LIMITED, new Row(RateLimitExceededException.class, HttpStatus.TOO_MANY_REQUESTS,
                type("rate-limited"), Throwable::getMessage, RefusalAnswers::violatedPolicies));
        table.put(RefusalKind.CIRCUIT_OPEN, new Row(CallNotPermittedException.class, HttpStatus.SERVICE_UNAVAILABLE,
                type("circuit-open"), Throwable::getMessage, (error, problem) -> {
                    CallNotPermittedException e = (CallNotPermittedException) error;
                    problem.setProperty("circuit-breaker", e.breakerName());
                    problem.setProperty("state", e.state().name());
                }));
        table.put(RefusalKind.BULKHEAD_FULL, new Row(BulkheadFullException.class, HttpStatus.SERVICE_UNAVAILABLE,
                type("bulkhead-full"), Throwable::getMessage, (error, problem) -> {
                    BulkheadFullException e = (BulkheadFullException) error;
                    problem.setProperty("bulkhead", e.bulkheadName());
                    problem.setProperty("max-concurrent-calls", e.maxConcurrentCalls());
                }));
        table.put(RefusalKind.BACKEND_UNAVAILABLE, new Row(RateLimiterBackendException.class,
                HttpStatus.SERVICE_UNAVAILABLE, type("rate-limit-backend-unavailable"),
                error -> "The rate limit could not be checked and fails closed: " + error.getMessage(),
                (error, problem) -> { }));
        table.put(RefusalKind.KEY_MISSING, new Row(MissingRateLimitKeyException.class, HttpStatus.BAD_REQUEST,
                type("rate-limit-key-missing"), Throwable::getMessage, RefusalAnswers::violatedPolicies));
        table.put(RefusalKind.PERMITS_INVALID, new Row(InvalidPermitsException.class, HttpStatus.BAD_REQUEST,
                type("rate-limit-permits-invalid"), Throwable::getMessage, RefusalAnswers::violatedPolicies));
        for (RefusalKind kind : RefusalKind.values()) {
            if (!table.containsKey(kind)) {
                throw new IllegalStateException("RefusalAnswers has no row for " + kind);
            }
        }
        return table;
    }

    private RefusalAnswers() {
    }

    /** Guard's answer to {@code error}, or empty when it is not one of Guard's refusals. */
    static Optional<ResponseEntity<ProblemDetail>> of(Throwable error, String path) {
        Row row = row(error);
        if (row == null) {
            return Optional.empty();
        }
        Refusal refusal = (Refusal) error;
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(row.status(), row.detail().apply(error));
        problem.setType(row.problemType());
        problem.setTitle(row.status().getReasonPhrase());
        if (path != null) {
            problem.setInstance(URI.create(path));
        }
        row.members().accept(error, problem);
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(row.status());
        refusal.retryAfterHint().ifPresent(wait ->
                answer.header(RateLimitHeaders.RETRY_AFTER, Long.toString(RateLimitHeaders.retryAfterSeconds(wait))));
        return Optional.of(answer.body(problem));
    }

    /**
     * The Guard exception type {@code error} is answered as (what an application's own handler must map to take over),
     * or empty when {@code error} is not one of Guard's refusals.
     */
    static Optional<Class<? extends Throwable>> guardType(Throwable error) {
        return Optional.ofNullable(row(error)).map(Row::type);
    }

    /** The Guard refusal in {@code error}'s cause chain (frameworks wrap it), or null. */
    static Throwable refusal(Throwable error) {
        for (Throwable current = error; current != null; current = current.getCause()) {
            if (row(current) != null) {
                return current;
            }
            if (current.getCause() == current) {
                break;
            }
        }
        return null;
    }

    /** The problem types, for tests and documentation: {@code urn:problem-type:guard:<name>}. */
    static URI problemType(RefusalKind kind) {
        return TABLE.get(kind).problemType();
    }

    /** The exception type each kind is thrown as. */
    static Class<? extends Throwable> exceptionType(RefusalKind kind) {
        return TABLE.get(kind).type();
    }

    private static Row row(Throwable error) {
        if (error instanceof Refusal refusal) {
            Row row = TABLE.get(refusal.refusalKind());
            if (row != null && row.type().isInstance(error)) {
                return row;
            }
        }
        return null;
    }

    private static void violatedPolicies(Throwable error, ProblemDetail problem) {
        problem.setProperty("violated-policies", List.of(((Refusal) error).refusedBy()));
    }

    private static URI type(String name) {
        return URI.create("urn:problem-type:guard:" + name);
    }
}
