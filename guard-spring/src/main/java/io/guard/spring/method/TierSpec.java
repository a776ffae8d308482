package io.guard.spring.method;

import io.guard.ratelimit.RateLimitPolicy;
import io.guard.spring.ratelimit.UnknownRateLimitTierException;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * The tiers of one {@code @RateLimit}, resolved at start-up: the parsed tier expression and one validated policy per
 * configured tier (named {@code <limit>.<tier>}). Chooses the policy of a call.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 *
 * @param expression    the parsed tier expression
 * @param byLowerCase   each tier's policy by its name in lower case (tiers are compared ignoring case)
 * @param defaultPolicy the policy of a call whose tier is null or not configured; null: such a call fails
 */
public record TierSpec(Expression expression, Map<String, RateLimitPolicy> byLowerCase, RateLimitPolicy defaultPolicy) {

    /** The longest tier value quoted back in an error message. */
    private static final int MAX_QUOTED = 64;

    Collection<RateLimitPolicy> policies() {
        return byLowerCase.values();
    }

    static String normalize(String tier) {
        return tier.toLowerCase(Locale.ROOT);
    }

    /** The policy of this call's tier, the default tier's, or an {@link UnknownRateLimitTierException}. */
    public RateLimitPolicy resolve(String limit, AnnotationSite site, EvaluationContext context) {
        Object value;
        String problem;
        try {
            value = expression.getValue(context);
            problem = null;
        } catch (EvaluationException e) {
            // Not the SpEL message: it may quote user input back.
            value = null;
            problem = "cannot be evaluated (" + e.getClass().getSimpleName() + ")";
        }
        String tier = value == null ? "" : value instanceof Enum<?> constant ? constant.name() : value.toString();
        RateLimitPolicy policy = tier.isEmpty() ? null : byLowerCase.get(normalize(tier));
        if (policy != null) {
            return policy;
        }
        if (defaultPolicy != null) {
            return defaultPolicy;
        }
        if (problem == null) {
            problem = tier.isEmpty() ? "is " + (value == null ? "null" : "empty")
                    : "is '" + quoted(tier) + "', which is not a configured tier";
        }
        throw new UnknownRateLimitTierException(limit, "Rate limit '" + limit + "' on " + site.describe()
                + ": tier '" + expression.getExpressionString() + "' " + problem + " for this call; configured tiers: "
                + byLowerCase.values().stream().map(p -> p.name().substring(limit.length() + 1)).sorted().toList()
                + ". Set guard.rate-limit.instances." + limit + ".default-tier, or configure the tier.");
    }

    private static String quoted(String tier) {
        String shown = tier.length() > MAX_QUOTED ? tier.substring(0, MAX_QUOTED) + "..." : tier;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }
}
