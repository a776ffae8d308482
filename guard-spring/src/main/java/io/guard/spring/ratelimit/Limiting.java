package io.guard.spring.ratelimit;

import io.guard.ratelimit.Failures;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimitRequest;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.method.CallEvaluationContext;
import io.guard.spring.method.DurationFormat;
import io.guard.spring.method.LimitSpec;
import io.guard.spring.method.TierSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Resolves the keys and permits of a call and asks the limiter registry (which counts, observes and applies the
 * backend-failure policy), synchronously or as a chain of stages. Several enforced limits on one call are decided
 * all-or-nothing as one group ({@link RateLimiterRegistry#acquireAll}): a refused call spends no permit on any of
 * them, and is answered with the refusing limit whose {@code retryAfter} is longest. Shadow limits are not in the
 * group: each is decided on its own once the enforced limits have allowed the call (as it would spend if enforced).
 *
 * <p>Internal: public because the advisors ({@code aop}), route limits ({@code routes}) and the gateway module decide
 * through it; not an API.
 */
public final class Limiting {

    /** The key of a limit without a key expression: one quota for every call of the method. */
    static final String GLOBAL_KEY = "global";
    /** The key shared by calls whose key expression yields nothing, under {@link MissingKeyPolicy#SHARED}. */
    static final String SHARED_MISSING_KEY = "unknown";

    /** Its own category, so that operators can route or silence shadow-mode refusals apart from the rest. */
    private static final Logger SHADOW_LOG = LoggerFactory.getLogger("io.guard.ratelimit.shadow");

    private final RateLimiterRegistry limiter;
    private final MissingKeyPolicy missingKey;
    private final LiveLimits live;

    /** @param live the overrides in force (shadow mode); null when limits never change at run time */
    public Limiting(RateLimiterRegistry limiter, MissingKeyPolicy missingKey, LiveLimits live) {
        this.limiter = limiter;
        this.missingKey = missingKey;
        this.live = live;
    }

    /**
     * Evaluates every limit's condition, key and permits, leaving out the limits whose condition is false; the
     * evaluation context is only built when some limit has an expression, so constant limits cost no SpEL at all.
     */
    public List<LimitRequest> requests(List<LimitSpec> specs, Supplier<? extends EvaluationContext> contexts) {
        return requests(specs, null, contexts);
    }

    /**
     * {@link #requests(List, Supplier)} for a method call: a key that is one parameter ({@link LimitSpec#keyParameter})
     * is read from {@code args}, so a limit keyed by a parameter costs no SpEL either.
     */
    public List<LimitRequest> requests(List<LimitSpec> specs, Object[] args,
                                       Supplier<? extends EvaluationContext> contexts) {
        List<LimitRequest> requests = new ArrayList<>(specs.size());
        EvaluationContext context = null;
        for (LimitSpec spec : specs) {
            if (context == null && spec.needsContext()) {
                context = contexts.get();
            }
            Expression condition = spec.condition();
            if (condition == null || applies(condition, context)) {
                TierSpec tiers = spec.tiers();
                RateLimitPolicy resolved = tiers == null ? spec.policy()
                        : tiers.resolve(spec.name(), spec.site(), context);
                // The policy in force now: an override or a refreshed configuration may have replaced it. Same name.
                String name = resolved.name();
                RateLimiterRegistry.Limit limit = limiter.limit(name);
                RateLimitPolicy policy = limit == null ? resolved : limit.policy();
                boolean shadow = live == null ? spec.shadow() : live.shadow(name, spec.shadow());
                Expression permits = spec.permitsExpression();
                requests.add(new LimitRequest(spec, new RateLimitRequest(policy, key(spec, context, args),
                        permits == null ? spec.permits() : permits(spec, permits, policy, context)), limit, shadow));
            }
        }
        return requests;
    }

    /** Only a condition that says false exempts a call: one that cannot decide must not open a hole in the limit. */
    private static boolean applies(Expression condition, EvaluationContext context) {
        try {
            return !Boolean.FALSE.equals(condition.getValue(context, Boolean.class));
        } catch (EvaluationException e) {
            return true;
        }
    }

    private String key(LimitSpec spec, EvaluationContext context, Object[] args) {
        if (spec.keyResolver() != null) {
            // Only annotations name key resolvers, and an annotation's context is a call's (routes have none).
            String resolved = spec.keyResolver().resolve(((CallEvaluationContext) context).keyContext());
            if (resolved != null && !resolved.isBlank()) {
                return resolved; // the common case, before any part of the missing-key message is built
            }
            return presentOrMissing(spec, null, "key resolver '" + spec.keyResolver().name() + "'", "returned no key");
        }
        Expression key = spec.key();
        if (key == null) {
            return GLOBAL_KEY;
        }
        int parameter = spec.keyParameter();
        Object value;
        String problem;
        try {
            value = args != null && parameter >= 0 ? args[parameter] : key.getValue(context);
            problem = value == null ? "is null" : "is empty";
        } catch (EvaluationException e) {
            // A navigation through null (#user.id with no user) or a throwing bean method: no key for this call,
            // like a null one. Not the SpEL message: it may quote the (user-supplied) value back.
            value = null;
            problem = "cannot be evaluated (" + e.getClass().getSimpleName() + ")";
        }
        String text = value == null ? null : value.toString();
        if (text != null && !text.isEmpty()) {
            return text; // the common case, before any part of the missing-key message is built
        }
        return presentOrMissing(spec, text, "'" + key.getExpressionString() + "'", problem);
    }

    /** The key, or what the missing-key policy says when there is none. */
    private String presentOrMissing(LimitSpec spec, String key, String source, String problem) {
        if (key != null && !key.isEmpty()) {
            return key;
        }
        if (missingKey == MissingKeyPolicy.SHARED) {
            return SHARED_MISSING_KEY;
        }
        throw new MissingRateLimitKeyException(spec.name(), "Rate limit '" + spec.name() + "' needs a key, but "
                + source + " " + problem + " for this call");
    }

    /** The permits {@code expression} (the spec's permits expression) asks for in this call, checked. */
    private static long permits(LimitSpec spec, Expression expression, RateLimitPolicy policy,
                                EvaluationContext context) {
        long max = policy.maxPermits();
        String expected = "Rate limit '" + policy.name() + "' grants between 1 and " + max + " permits per call, but '"
                + expression.getExpressionString() + "' is ";
        Long permits;
        try {
            permits = expression.getValue(context, Long.class);
        } catch (EvaluationException e) {
            // Not the SpEL message: it may quote the (user-supplied) value back.
            throw new InvalidPermitsException(spec.name(), expected + "not a number for this call");
        }
        if (permits == null || permits < 1 || permits > max) {
            throw new InvalidPermitsException(spec.name(), expected + permits + " for this call");
        }
        return permits;
    }

    /** Asks the limits, blocking for those with a timeout; throws the refusal. */
    public void acquire(List<LimitRequest> requests, RateLimitDecisionSink sink) {
        List<LimitRequest> group = requests.size() < 2 ? List.of() : enforced(requests); // a group: several limits
        if (group.size() > 1) {
            List<RateLimitRequest> each = group.stream().map(LimitRequest::request).toList();
            check(group, join(limiter.acquireAll(each, waitsFor(group))), sink);
            requests = requests.stream().filter(LimitRequest::shadow).toList();
        }
        for (LimitRequest request : requests) {
            LimitSpec spec = request.spec();
            boolean shadow = request.shadow();
            Duration wait = shadow ? Duration.ZERO : spec.timeout(); // as waitsFor(request) says
            RateLimiterRegistry.Limit limit = request.limit();
            Decision decision = limit == null
                    ? limiter.tryAcquire(request.policy().name(), request.key(), request.permits()) // throws: no limit
                    : wait.isZero() ? limiter.tryAcquire(limit, request.key(), request.permits())
                    : join(limiter.acquire(limit, request.key(), request.permits(), wait));
            check(request, spec, shadow, decision, sink);
        }
    }

    /** Asks the limits without blocking; the stage fails with the refusal. */
    public CompletionStage<Void> acquireAsync(List<LimitRequest> requests, RateLimitDecisionSink sink) {
        CompletionStage<Void> chain = CompletableFuture.completedFuture(null);
        List<LimitRequest> group = enforced(requests);
        if (group.size() > 1) {
            chain = limiter.acquireAll(group.stream().map(LimitRequest::request).toList(), waitsFor(group))
                    .thenAccept(decisions -> check(group, decisions, sink));
            requests = requests.stream().filter(LimitRequest::shadow).toList();
        }
        for (LimitRequest request : requests) {
            chain = chain.thenCompose(ignored -> ask(request)).thenAccept(decision -> check(request, decision, sink));
        }
        return chain;
    }

    private CompletionStage<Decision> ask(LimitRequest request) {
        if (request.limit() == null) {
            return limiter.tryAcquireAsync(request.policy().name(), request.key(), request.permits()); // throws
        }
        Duration wait = waitsFor(request);
        return wait.isZero()
                ? limiter.tryAcquireAsync(request.limit(), request.key(), request.permits())
                : limiter.acquire(request.limit(), request.key(), request.permits(), wait);
    }

    /**
     * The limits that may refuse this call, when they are several (a group to decide all-or-nothing); else an
     * empty list, so that the common single-limit call builds no list.
     */
    private static List<LimitRequest> enforced(List<LimitRequest> requests) {
        return requests.size() < 2 ? List.of() : requests.stream().filter(request -> !request.shadow()).toList();
    }

    /** A group waits as long as its most impatient limit allows: a limit without a timeout never waits. */
    private static Duration waitsFor(List<LimitRequest> group) {
        return group.stream().map(Limiting::waitsFor).min(Duration::compareTo).orElseThrow();
    }

    /**
     * Acts on a group's decisions (in the order of {@code group}; fewer when the backend stopped at a refusal): when
     * all allowed, records each limit's header fields; else throws the refusal with the longest wait.
     */
    private void check(List<LimitRequest> group, List<Decision> decisions, RateLimitDecisionSink sink) {
        int answering = Decision.answering(decisions);
        if (!decisions.get(answering).allowed()) {
            check(group.get(answering), decisions.get(answering), sink);
        }
        for (int i = 0; i < decisions.size(); i++) {
            check(group.get(i), decisions.get(i), sink);
        }
    }

    /** A shadow limit never waits: it must not change how long calls take. */
    private static Duration waitsFor(LimitRequest request) {
        return request.shadow() ? Duration.ZERO : request.spec().timeout();
    }

    /**
     * Acts on a decision the registry has already counted (metrics, events): a refusal throws, except in shadow
     * mode, where it is logged with the limit's name (never the key) and the call goes on, without header fields.
     */
    private void check(LimitRequest request, Decision decision, RateLimitDecisionSink sink) {
        check(request, request.spec(), request.shadow(), decision, sink);
    }

    /** {@link #check(LimitRequest, Decision, RateLimitDecisionSink)} with the request's spec and shadow flag read. */
    private void check(LimitRequest request, LimitSpec spec, boolean shadow, Decision decision,
                       RateLimitDecisionSink sink) {
        if (decision.backendFailure() != null) {
            sink.failedOver(request.policy(), decision);
        }
        if (shadow) {
            if (!decision.allowed()) {
                SHADOW_LOG.info("Rate limit '{}' (shadow mode) would have refused a call of {}: {} permit(s), "
                        + "retry after {}", request.policy().name(), spec.site().describe(), request.permits(),
                        DurationFormat.compact(decision.retryAfter()));
                sink.shadowRefusal(request.policy(), decision);
            }
            return;
        }
        if (spec.httpHeaders()) {
            sink.record(request.policy(), decision);
        }
        if (!decision.allowed()) {
            throw new RateLimitExceededException(request.policy(), decision, spec.messageFor(request.policy()));
        }
    }

    private static <T> T join(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            Throwable cause = Failures.unwrap(e);
            throw cause instanceof RuntimeException runtime ? runtime : e;
        }
    }
}
