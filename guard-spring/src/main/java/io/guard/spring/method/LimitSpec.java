package io.guard.spring.method;

import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.lease.LeaseSize;
import org.springframework.expression.Expression;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * One {@code @RateLimit} on one method, resolved and checked at start-up: the policy in force (or the tiers to choose
 * it from per call), the parsed condition, key and permits expressions, how long to wait, and what to say on
 * rejection.
 *
 * <p>Internal: public only because Guard's {@code aop} and {@code routes} packages use it; not an API.
 *
 * @param name              the limit's name
 * @param policy            the policy after layering instance properties, annotation and defaults; null when tiered
 * @param tiers             the tiers a call's policy is chosen from; null when the limit has one policy
 * @param condition         the parsed condition; null when the limit applies to every call
 * @param key               the parsed key expression; null for one key per limit
 * @param permits           the permits a call takes when {@code permitsExpression} is null
 * @param permitsExpression the parsed permits expression; null when the permits are a constant
 * @param timeout           how long to wait for permits; zero refuses at once
 * @param message           the 429 {@code detail}; null for one naming the policy that refused
 * @param httpHeaders       whether decisions go into the HTTP answer's RateLimit header fields
 * @param shadow            whether the limit only decides and records, never refusing
 * @param fallback          what answers instead of a refusal; null when a refusal throws
 * @param site              where the annotation sits, for run-time messages
 * @param keyResolver       the bean that computes the key instead of {@code key}; null when there is none
 * @param readsPrincipal    whether the key, condition, tier, permits or resolver may read the request's principal,
 *                          which WebFlux only offers asynchronously, so it is resolved before the expressions run
 * @param keyParameter      the index of the parameter that {@code key} is when it is nothing else ({@code #userId}),
 *                          read from the call's arguments without SpEL; -1 when {@code key} is evaluated
 * @param lease             how its decisions lease (its tiers' too): {@link LeaseSize#OFF} for exact
 * @param cost              what is charged after the call ({@code cost}); null when nothing is
 */
public record LimitSpec(String name, RateLimitPolicy policy, TierSpec tiers, Expression condition, Expression key,
                        long permits, Expression permitsExpression, Duration timeout, String message,
                        boolean httpHeaders, boolean shadow, FallbackMethods fallback, AnnotationSite site,
                        KeyResolverBean keyResolver, boolean readsPrincipal, int keyParameter,
                        LeaseSize lease, CostSpec cost) {

    /**
     * Whether deciding a call needs the call's evaluation context: some condition, key, permits, tier or resolver
     * is not a constant and not a parameter read directly ({@link #keyParameter}).
     */
    public boolean needsContext() {
        return condition != null || (key != null && keyParameter < 0) || permitsExpression != null || tiers != null
                || keyResolver != null;
    }

    /** This limit charging {@code cost} after each call (a route's cost header, checked by the caller). */
    public LimitSpec withCost(CostSpec cost) {
        return new LimitSpec(name, policy, tiers, condition, key, permits, permitsExpression, timeout, message,
                httpHeaders, shadow, fallback, site, keyResolver, readsPrincipal, keyParameter, lease, cost);
    }

    /** Every policy a call may be decided under: the one policy, or one per tier. */
    Collection<RateLimitPolicy> policies() {
        return tiers == null ? List.of(policy) : tiers.policies();
    }

    /** Whether the policy named {@code policyName} is this limit's or one of its tiers'. */
    public boolean decides(String policyName) {
        return policies().stream().anyMatch(p -> p.name().equals(policyName));
    }

    /** The {@code detail} of a refusal by {@code refusing}. */
    public String messageFor(RateLimitPolicy refusing) {
        return message != null ? message : LimitSpecFactory.defaultMessage(refusing);
    }
}
