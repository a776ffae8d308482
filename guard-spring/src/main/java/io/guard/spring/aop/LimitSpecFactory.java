package io.guard.spring.aop;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.stereotype.Controller;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.spring.annotation.RateLimit;
import org.springframework.expression.Expression;

import java.time.Duration;
import java.util.function.Function;

/**
 * Turns a {@link RateLimit} into a {@link LimitSpec}: layers {@code guard.rate-limit.instances.<name>} over the
 * annotation over {@code guard.rate-limit.defaults}, builds the (validated) policy, parses the expressions and
 * resolves the fallback.
 */
final class LimitSpecFactory {

    /** What no source sets: a one-second interval, the exact sliding log, no waiting. */
    static final LimitSettings BUILT_IN = new LimitSettings(null, Duration.ofSeconds(1), Algorithm.SLIDING_LOG, null,
            null, null, null, Duration.ZERO, null, null, false);

    private final GuardExpressionParser parser;
    private final Function<String, LimitSettings> instances;
    private final LimitSettings defaults;
    private final KeyResolverBeans keyResolvers;

    /**
     * @param instances    the properties of a named limit ({@link LimitSettings#NONE} when it has none)
     * @param defaults     {@code guard.rate-limit.defaults}
     * @param keyResolvers the beans {@code keyResolver} may name
     */
    LimitSpecFactory(GuardExpressionParser parser, Function<String, LimitSettings> instances,
                     LimitSettings defaults, KeyResolverBeans keyResolvers) {
        this.parser = parser;
        this.instances = instances;
        this.defaults = defaults;
        this.keyResolvers = keyResolvers;
    }

    LimitSpec create(RateLimit annotation, AnnotationSite site) {
        String name = annotation.name().trim();
        if (name.isEmpty()) {
            throw site.error("name", annotation.name(), "is empty", "Name the limit; it is its configuration key.");
        }
        LimitSettings settings = instances.apply(name)
                .orElse(RateLimitAttributes.read(annotation, site))
                .orElse(defaults)
                .orElse(BUILT_IN);
        RateLimitPolicy policy = policy(name, settings, site);
        Expression condition = annotation.condition().isBlank() ? null
                : parser.parse(site, "condition", annotation.condition(), CurrentRequest.VARIABLES);
        Expression key = annotation.key().isBlank() ? null
                : parser.parse(site, "key", annotation.key(), CurrentRequest.VARIABLES);
        KeyResolverBean keyResolver = keyResolver(annotation, site);
        String message = settings.message() != null ? settings.message() : defaultMessage(policy);
        boolean httpHeaders = settings.httpHeaders() != null ? settings.httpHeaders() : isWebHandler(site.type());
        FallbackMethods fallback = annotation.fallbackMethod().isBlank() ? null : FallbackResolver.resolveFor(site,
                annotation.fallbackMethod().trim(), RateLimitExceededException.class);
        String permitsText = annotation.permits().trim();
        long permits = 1;
        Expression permitsExpression = null;
        if (permitsText.chars().allMatch(Character::isDigit) && !permitsText.isEmpty()) {
            permits = parsePermits(site, permitsText);
            if (permits < 1 || permits > policy.maxPermits()) {
                throw site.error("permits", permitsText, "is more than limit '" + name
                                + "' can ever grant (between 1 and " + policy.maxPermits() + ")",
                        "Lower the permits or raise the rate (or burst) of '" + name + "'.");
            }
        } else if (!permitsText.isEmpty()) {
            permitsExpression = parser.parse(site, "permits", permitsText, CurrentRequest.VARIABLES);
        }
        boolean readsPrincipal = keyResolver != null
                || GuardExpressionParser.references(condition, CurrentRequest.PRINCIPAL)
                || GuardExpressionParser.references(key, CurrentRequest.PRINCIPAL)
                || GuardExpressionParser.references(permitsExpression, CurrentRequest.PRINCIPAL);
        return new LimitSpec(policy, condition, key, permits, permitsExpression, settings.timeout(), message,
                httpHeaders, settings.shadow(), fallback, site, keyResolver, readsPrincipal);
    }

    private KeyResolverBean keyResolver(RateLimit annotation, AnnotationSite site) {
        String name = annotation.keyResolver().trim();
        if (name.isEmpty()) {
            return null;
        }
        if (!annotation.key().isBlank()) {
            throw site.error("keyResolver", name, "is set together with key '" + annotation.key() + "'",
                    "Set one of them: key for a SpEL expression, keyResolver for a RateLimitKeyResolver bean.");
        }
        return keyResolvers.find(site, name);
    }

    /**
     * A limit on a controller decides the HTTP request, so its decisions belong in the answer's header fields; one on
     * a service bean (an outbound quota, say) is the application's own business.
     */
    private static boolean isWebHandler(Class<?> type) {
        return AnnotatedElementUtils.hasAnnotation(type, Controller.class);
    }

    private static long parsePermits(AnnotationSite site, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw site.error("permits", text, "is too large", "Use a number of permits within the rate.");
        }
    }

    private static RateLimitPolicy policy(String name, LimitSettings settings, AnnotationSite site) {
        if (settings.rate() == null) {
            throw site.error("rate", "0", "is not set, nor guard.rate-limit.instances." + name
                            + ".rate, nor guard.rate-limit.defaults.rate",
                    "Set rate on the annotation or in guard.rate-limit.instances." + name + ".rate.");
        }
        try {
            return new RateLimitPolicy(name, settings.algorithm(), settings.rate(), settings.interval(),
                    settings.burst() == null ? 0 : settings.burst(), settings.scope(), settings.timeSource(),
                    settings.onBackendFailure());
        } catch (IllegalArgumentException e) {
            throw site.error("name", name, "resolves to an invalid limit: " + e.getMessage(),
                    "Fix the annotation or guard.rate-limit.instances." + name + ".*.");
        }
    }

    private static String defaultMessage(RateLimitPolicy policy) {
        return "Rate limit '" + policy.name() + "' allows " + policy.rate() + " requests per "
                + DurationFormat.compact(policy.interval()) + ".";
    }
}
