package io.guard.spring.ratelimit;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.method.CostSpec;
import io.guard.spring.method.LimitSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Charges the costs known only after a call ({@code @RateLimit(cost = ...)}, or a route's {@code cost-header}): for
 * each limit of the call that has one, the cost of the result or the response header (or, for a call that threw,
 * what its {@code costOnFailure} says) minus the permits taken at admission, charged to the same key and limit
 * through the registry. Never fails the call: a cost that cannot be evaluated, is missing or is negative, leaves the
 * estimate charged and is logged once per limit; a charge the backend could not make is logged (throttled) and
 * counted by the registry.
 *
 * <p>Internal: public because the advisors ({@code aop}), the routes and the gateway charge through it; not an API.
 */
public final class CostCharges {

    private static final Logger log = LoggerFactory.getLogger(CostCharges.class);

    private final RateLimiterRegistry limiter;
    /** The limits (by name and method) whose unusable cost was logged already: one line each, not one per call. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    public CostCharges(RateLimiterRegistry limiter) {
        this.limiter = limiter;
    }

    /**
     * Charges what a call that returned consumed; {@code withResult} makes the evaluation context with
     * {@code #result} set (asked once). Completes, never exceptionally, once every charge is done.
     */
    public CompletableFuture<Void> returned(List<LimitRequest> admitted, Supplier<EvaluationContext> withResult) {
        return charge(admitted, withResult, false, null);
    }

    /**
     * Charges what a request that was answered consumed, by the cost header of each limit
     * ({@link CostSpec#header()}); {@code headers} reads one of the response's header fields (null when absent).
     */
    public CompletableFuture<Void> responded(List<LimitRequest> admitted, Function<String, String> headers) {
        return charge(admitted, () -> null, false, headers);
    }

    /**
     * Charges a call that threw as each limit's {@code costOnFailure} says; {@code withException} makes the
     * evaluation context with {@code #exception} set (asked only for a cost expression).
     */
    public CompletableFuture<Void> threw(List<LimitRequest> admitted, Supplier<EvaluationContext> withException) {
        return charge(admitted, withException, true, null);
    }

    private CompletableFuture<Void> charge(List<LimitRequest> admitted, Supplier<EvaluationContext> contexts,
                                           boolean failed, Function<String, String> headers) {
        List<CompletableFuture<?>> charges = new ArrayList<>(1);
        EvaluationContext context = null;
        for (LimitRequest request : admitted) {
            CostSpec cost = request.spec().cost();
            if (cost == null || request.limit() == null
                    || (failed && cost.onFailure() == CostSpec.OnFailure.ESTIMATE)) {
                continue;
            }
            Long consumed = 0L;
            if (!failed && cost.header() != null) {
                consumed = headers == null ? null : read(request.spec(), cost.header(), headers.apply(cost.header()));
            } else if (!failed || cost.onFailure() == CostSpec.OnFailure.EXPRESSION) {
                context = context != null ? context : contexts.get();
                consumed = evaluate(request.spec(), failed ? cost.failureCost() : cost.cost(), context);
            }
            if (consumed != null && consumed != request.permits()) {
                charges.add(limiter.charge(request.limit(), request.key(), consumed - request.permits())
                        .toCompletableFuture());
            }
        }
        if (charges.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        // A failed charge was logged and counted by the registry; the call's own outcome stands.
        return CompletableFuture.allOf(charges.toArray(CompletableFuture[]::new)).handle((ignored, error) -> null);
    }

    /** The cost in a response header, or null (the estimate stands) when it is not a whole number of at least 0. */
    private Long read(LimitSpec spec, String header, String value) {
        if (value != null) {
            try {
                long cost = Long.parseLong(value.trim());
                if (cost >= 0) {
                    return cost;
                }
            } catch (NumberFormatException e) {
                // logged below
            }
        }
        if (warned.add(spec.name() + " on " + spec.site().describe())) {
            // Not the value: it comes from the response, possibly from a client's input.
            log.warn("Rate limit '{}' on {}: cost header '{}' is {} in a response, so the permits taken at admission"
                    + " stand (logged once)", spec.name(), spec.site().describe(), header,
                    value == null ? "missing" : "not a whole number of at least 0");
        }
        return null;
    }

    /** The cost, or null (the estimate stands) when it is not a number of at least 0 for this call. */
    private Long evaluate(LimitSpec spec, Expression expression, EvaluationContext context) {
        String problem;
        try {
            Long cost = expression.getValue(context, Long.class);
            if (cost != null && cost >= 0) {
                return cost;
            }
            problem = "is " + cost;
        } catch (EvaluationException | IllegalStateException e) {
            // Not the SpEL message: it may quote the value back.
            problem = "cannot be evaluated (" + e.getClass().getSimpleName() + ")";
        }
        if (warned.add(spec.name() + " on " + spec.site().describe())) {
            log.warn("Rate limit '{}' on {}: cost '{}' {} for a call, so the permits taken at admission stand"
                    + " (logged once)", spec.name(), spec.site().describe(), expression.getExpressionString(), problem);
        }
        return null;
    }
}
