package io.guard.spring.method;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.ratelimit.LimitSettings;
import org.springframework.expression.Expression;

import java.util.Collection;
import java.util.Locale;
import java.util.Set;

/**
 * The cost of one {@code @RateLimit} known only after the call ({@link RateLimit#cost()} and
 * {@link RateLimit#costOnFailure()}), parsed and checked at start-up: a cost needs a TOKEN_BUCKET limit (the one
 * algorithm whose balance can go into debt), no lease (leased permits are spent before the call and cannot be
 * charged again), and a result that is one value (not a {@code Flux} or {@code Flow}).
 *
 * <p>Internal: public only because Guard's {@code ratelimit} package charges with it; not an API.
 *
 * @param cost        the cost of a call that returned: SpEL over the parameters and {@code #result}
 * @param onFailure   what a call that threw is charged
 * @param failureCost with {@link OnFailure#EXPRESSION}, SpEL over the parameters and {@code #exception}; else null
 */
public record CostSpec(Expression cost, OnFailure onFailure, Expression failureCost) {

    /** The variable that holds the method's result in {@link #cost}. */
    public static final String RESULT = "result";
    /** The variable that holds what the method threw in {@link #failureCost}. */
    public static final String EXCEPTION = "exception";

    /** What a call that threw is charged. */
    public enum OnFailure {
        /** The permits taken at admission stay charged; nothing more. */
        ESTIMATE,
        /** The permits taken at admission are given back. */
        NONE,
        /** What {@link #failureCost} says, in place of the permits taken at admission. */
        EXPRESSION
    }

    /**
     * The cost of {@code annotation}, or null when it sets none.
     *
     * @param policies every policy a call may be decided under (the limit's, or one per tier)
     * @param settings the limit's layered settings and each tier's, whose leases must be off
     */
    static CostSpec of(RateLimit annotation, AnnotationSite site, Collection<RateLimitPolicy> policies,
                       Collection<LimitSettings> settings, GuardExpressionParser parser) {
        String text = annotation.cost().trim();
        String onFailure = annotation.costOnFailure().trim();
        if (text.isEmpty()) {
            if (!onFailure.isEmpty()) {
                throw site.error("costOnFailure", onFailure, "is set without a cost",
                        "Set cost (what a call consumed, e.g. \"#result.tokens\") or remove costOnFailure.");
            }
            return null;
        }
        ReturnKind kind = ReturnKind.of(site.method());
        if (kind == ReturnKind.FLUX || kind == ReturnKind.FLOW) {
            throw site.error("cost", text, "is charged after a call returns one value, but the method returns a "
                            + (kind == ReturnKind.FLUX ? "Flux" : "Flow") + ", whose #result would be ambiguous",
                    "Return a Mono (collect the stream, e.g. with reduce or collectList) or a plain value.");
        }
        for (RateLimitPolicy policy : policies) {
            if (policy.algorithm() != Algorithm.TOKEN_BUCKET) {
                throw site.error("cost", text, "needs a TOKEN_BUCKET limit (whose balance can go into debt), but '"
                                + policy.name() + "' counts with " + policy.algorithm(),
                        "Set algorithm = \"TOKEN_BUCKET\" or guard.rate-limit.instances." + annotation.name().trim()
                                + ".algorithm=token-bucket.");
            }
        }
        for (LimitSettings each : settings) {
            if (each.lease() != null && !each.leaseSize().off()) {
                throw site.error("cost", text, "cannot be charged on a leased limit (lease=" + each.lease()
                                + "): leased permits are spent in advance, before any call",
                        "Set lease = \"off\" where it is set: the annotation's lease attribute or guard.rate-limit."
                                + "instances." + annotation.name().trim() + ".lease (which wins over the annotation).");
            }
        }
        Expression cost = parser.parse(site, "cost", text, Set.of(RESULT));
        return switch (onFailure.toLowerCase(Locale.ROOT)) {
            case "", "estimate" -> new CostSpec(cost, OnFailure.ESTIMATE, null);
            case "none" -> new CostSpec(cost, OnFailure.NONE, null);
            default -> new CostSpec(cost, OnFailure.EXPRESSION,
                    parser.parse(site, "costOnFailure", onFailure, Set.of(EXCEPTION)));
        };
    }
}
