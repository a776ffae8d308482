package io.guard.spring.method;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.ratelimit.LimitSettings;
import org.springframework.expression.Expression;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The cost of one {@code @RateLimit} known only after the call ({@link RateLimit#cost()} and
 * {@link RateLimit#costOnFailure()}), parsed and checked at start-up: a cost needs a TOKEN_BUCKET limit (the one
 * algorithm whose balance can go into debt), no lease (leased permits are spent before the call and cannot be
 * charged again), and a result that is one value (not a {@code Flux} or {@code Flow}). A limit declared in
 * configuration (a route, a gateway route) reads its cost from a response header instead ({@link #ofHeader}), under
 * the same checks.
 *
 * <p>Internal: public only because Guard's {@code ratelimit} package charges with it, and the routes and the gateway
 * build theirs with {@link #ofHeader}; not an API.
 *
 * @param cost        the cost of a call that returned: SpEL over the parameters and {@code #result}; null when
 *                    {@code header} gives it
 * @param onFailure   what a call that threw is charged
 * @param failureCost with {@link OnFailure#EXPRESSION}, SpEL over the parameters and {@code #exception}; else null
 * @param header      the response header holding the cost of a request (routes, the gateway); null for an annotation
 */
public record CostSpec(Expression cost, OnFailure onFailure, Expression failureCost, String header) {

    /** The variable that holds the method's result in {@link #cost}. */
    public static final String RESULT = "result";
    /** The variable that holds what the method threw in {@link #failureCost}. */
    public static final String EXCEPTION = "exception";

    /** What a header name may hold (RFC 9110's token). */
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

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
        requireChargeable(site, "cost", text, annotation.name().trim(), policies, settings.stream()
                .filter(each -> each.lease() != null && !each.leaseSize().off()).map(LimitSettings::lease).toList(),
                true);
        Expression cost = parser.parse(site, "cost", text, Set.of(RESULT));
        return switch (onFailure.toLowerCase(Locale.ROOT)) {
            case "", "estimate" -> new CostSpec(cost, OnFailure.ESTIMATE, null, null);
            case "none" -> new CostSpec(cost, OnFailure.NONE, null, null);
            default -> new CostSpec(cost, OnFailure.EXPRESSION,
                    parser.parse(site, "costOnFailure", onFailure, Set.of(EXCEPTION)), null);
        };
    }

    /**
     * The cost of a limit declared in configuration, read from the response header {@code header}, or null when
     * neither {@code header} nor {@code onFailure} is set. Checked as an annotation's cost: a TOKEN_BUCKET limit
     * without a lease, and {@code cost-on-failure} only with {@code cost-header}.
     *
     * @param prefix    what the two properties' names start with in an error ({@code ""} for a route,
     *                  {@code "args.guard."} for a gateway filter)
     * @param onFailure {@code estimate} (also when blank) or {@code none}
     * @param limit     the limit the cost is charged to, already checked
     */
    public static CostSpec ofHeader(AnnotationSite site, String prefix, String header, String onFailure,
                                    LimitSpec limit) {
        String name = header == null ? "" : header.trim();
        String failure = onFailure == null ? "" : onFailure.trim();
        if (name.isEmpty()) {
            if (!failure.isEmpty()) {
                throw site.error(prefix + "cost-on-failure", failure, "is set without a cost-header",
                        "Set " + prefix + "cost-header (the response header holding what a request cost, e.g. "
                                + "X-Usage-Tokens) or remove " + prefix + "cost-on-failure.");
            }
            return null;
        }
        if (!HEADER_NAME.matcher(name).matches()) {
            throw site.error(prefix + "cost-header", name, "is not a header name",
                    "Name the response header holding what a request cost, e.g. X-Usage-Tokens.");
        }
        requireChargeable(site, prefix + "cost-header", name, limit.name(), limit.policies(),
                limit.lease().off() ? List.of() : List.of(limit.lease().toString()), false);
        return switch (failure.toLowerCase(Locale.ROOT)) {
            case "", "estimate" -> new CostSpec(null, OnFailure.ESTIMATE, null, name);
            case "none" -> new CostSpec(null, OnFailure.NONE, null, name);
            default -> throw site.error(prefix + "cost-on-failure", failure, "is neither estimate nor none",
                    "Use estimate (a failed request keeps the permits taken at admission) or none (they are "
                            + "given back).");
        };
    }

    /**
     * Refuses a cost on a limit that cannot carry a debt: one counted by another algorithm than TOKEN_BUCKET, or
     * leased ({@code leases}: the lease settings other than off).
     *
     * @param onMethod whether the cost is an annotation's (whose own attributes may also fix it)
     */
    private static void requireChargeable(AnnotationSite site, String attribute, String value, String limit,
                                          Collection<RateLimitPolicy> policies, Collection<String> leases,
                                          boolean onMethod) {
        String instance = "guard.rate-limit.instances." + limit;
        for (RateLimitPolicy policy : policies) {
            if (policy.algorithm() != Algorithm.TOKEN_BUCKET) {
                throw site.error(attribute, value, "needs a TOKEN_BUCKET limit (whose balance can go into debt), but '"
                                + policy.name() + "' counts with " + policy.algorithm(),
                        (onMethod ? "Set algorithm = \"TOKEN_BUCKET\" or " : "Set ") + instance
                                + ".algorithm=token-bucket.");
            }
        }
        if (!leases.isEmpty()) {
            throw site.error(attribute, value, "cannot be charged on a leased limit (lease=" + leases.iterator().next()
                            + "): leased permits are spent in advance, before any call",
                    onMethod ? "Set lease = \"off\" where it is set: the annotation's lease attribute or " + instance
                            + ".lease (which wins over the annotation)." : "Set " + instance + ".lease=off.");
        }
    }
}
