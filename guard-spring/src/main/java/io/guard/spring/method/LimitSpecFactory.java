package io.guard.spring.method;

import io.guard.spring.ratelimit.LimitSettings;
import io.guard.spring.ratelimit.LimitTiers;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.request.CurrentRequest;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.stereotype.Controller;
import org.springframework.util.ClassUtils;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.lease.LeaseSize;
import io.guard.spring.annotation.RateLimit;
import org.springframework.expression.Expression;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Turns a {@link RateLimit} into a {@link LimitSpec}: layers {@code guard.rate-limit.instances.<name>} over the
 * annotation over {@code guard.rate-limit.defaults}, builds the (validated) policy, parses the expressions and
 * resolves the fallback.
 *
 * <p>Internal: public only because Guard's {@code routes} package uses it; not an API.
 */
public final class LimitSpecFactory {

    /** What no source sets: a one-second interval, the exact sliding log, no waiting. */
    static final LimitSettings BUILT_IN = new LimitSettings(null, Duration.ofSeconds(1), Algorithm.SLIDING_LOG, null,
            null, null, null, Duration.ZERO, null, null, false, null, null, null);

    /** Tier names go into policy names, header fields and meter tags: a plain word. */
    private static final Pattern TIER_NAME = Pattern.compile("[A-Za-z0-9_-]{1,32}");

    private final GuardExpressionParser parser;
    private final Function<String, LimitSettings> instances;
    private final Function<String, LimitTiers> tiers;
    private final LimitSettings defaults;
    private final KeyResolverBeans keyResolvers;

    /**
     * @param instances    the properties of a named limit ({@link LimitSettings#NONE} when it has none)
     * @param tiers        the tiers of a named limit ({@link LimitTiers#NONE} when it has none)
     * @param defaults     {@code guard.rate-limit.defaults}
     * @param keyResolvers the beans {@code keyResolver} may name
     */
    public LimitSpecFactory(GuardExpressionParser parser, Function<String, LimitSettings> instances,
                     Function<String, LimitTiers> tiers, LimitSettings defaults, KeyResolverBeans keyResolvers) {
        this.parser = parser;
        this.instances = instances;
        this.tiers = tiers;
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
        TierSpec tierSpec = tiers(name, annotation, settings, site);
        RateLimitPolicy policy = tierSpec == null ? policy(name, settings, site) : null;
        Expression condition = annotation.condition().isBlank() ? null
                : parser.parse(site, "condition", annotation.condition(), CurrentRequest.VARIABLES);
        Expression key = annotation.key().isBlank() ? null
                : parser.parse(site, "key", annotation.key(), CurrentRequest.VARIABLES);
        KeyResolverBean keyResolver = keyResolver(annotation, site);
        String message = settings.message();
        boolean httpHeaders = settings.httpHeaders() != null ? settings.httpHeaders() : isWebHandler(site.type());
        FallbackMethods fallback = annotation.fallbackMethod().isBlank() ? null : FallbackResolver.resolveFor(site,
                annotation.fallbackMethod().trim(), RateLimitExceededException.class);
        String permitsText = annotation.permits().trim();
        long permits = 1;
        Expression permitsExpression = null;
        if (permitsText.chars().allMatch(Character::isDigit) && !permitsText.isEmpty()) {
            permits = parsePermits(site, permitsText);
            for (RateLimitPolicy each : tierSpec == null ? Set.of(policy) : tierSpec.policies()) {
                if (permits < 1 || permits > each.maxPermits()) {
                    throw site.error("permits", permitsText, "is more than limit '" + each.name()
                                    + "' can ever grant (between 1 and " + each.maxPermits() + ")",
                            "Lower the permits or raise the rate (or burst) of '" + each.name() + "'.");
                }
            }
        } else if (!permitsText.isEmpty()) {
            permitsExpression = parser.parse(site, "permits", permitsText, CurrentRequest.VARIABLES);
        }
        boolean readsPrincipal = keyResolver != null
                || GuardExpressionParser.references(condition, CurrentRequest.PRINCIPAL)
                || GuardExpressionParser.references(key, CurrentRequest.PRINCIPAL)
                || (tierSpec != null && GuardExpressionParser.references(tierSpec.expression(), CurrentRequest.PRINCIPAL))
                || GuardExpressionParser.references(permitsExpression, CurrentRequest.PRINCIPAL);
        CostSpec cost = CostSpec.of(annotation, site, tierSpec == null ? Set.of(policy) : tierSpec.policies(),
                Stream.concat(Stream.of(settings), tiers.apply(name).tiers().values().stream().map(settings::forTier))
                        .toList(), parser);
        return new LimitSpec(name, policy, tierSpec, condition, key, permits, permitsExpression, settings.timeout(),
                message, httpHeaders, settings.shadow(), fallback, site, keyResolver, readsPrincipal,
                parser.parameterOnly(key, site.method()), settings.leaseSize(), cost);
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
     * The tiers of a limit whose annotation has a tier expression: one validated policy per configured tier, named
     * {@code <limit>.<tier>}, each filling what it leaves unset from the limit's own settings. Null for a limit
     * without tiers; tiers without an expression, or an expression without tiers, are errors.
     */
    private TierSpec tiers(String name, RateLimit annotation, LimitSettings settings, AnnotationSite site) {
        LimitTiers configured = tiers.apply(name);
        String prefix = "guard.rate-limit.instances." + name;
        String text = annotation.tier().trim();
        if (text.isEmpty()) {
            if (!configured.isEmpty()) {
                throw site.error("tier", annotation.tier(), "is empty, but " + prefix
                                + (configured.tiers().isEmpty() ? ".default-tier" : ".tiers") + " is configured",
                        "Choose each call's tier with tier = \"#user.plan\" (SpEL), or remove " + prefix
                                + ".tiers and .default-tier.");
            }
            return null;
        }
        if (configured.tiers().isEmpty()) {
            throw site.error("tier", text, "chooses a tier, but " + prefix + ".tiers configures none",
                    "Configure the tiers, e.g. " + prefix + ".tiers.free.rate=10 and " + prefix
                            + ".tiers.pro.rate=1000.");
        }
        Expression expression = parser.parse(site, "tier", text, CurrentRequest.VARIABLES);
        Map<String, RateLimitPolicy> byLowerCase = new LinkedHashMap<>();
        for (Map.Entry<String, LimitSettings> tier : new TreeMap<>(configured.tiers()).entrySet()) {
            String property = prefix + ".tiers." + tier.getKey();
            if (!TIER_NAME.matcher(tier.getKey()).matches()) {
                throw site.error("tier", text, "chooses among tiers, but " + property + " is not a valid tier name",
                        "Name tiers with 1 to 32 letters, digits, '-' or '_'.");
            }
            RateLimitPolicy policy = tierPolicy(name + "." + tier.getKey(), tier.getValue(), settings, property, site);
            RateLimitPolicy twin = byLowerCase.putIfAbsent(TierSpec.normalize(tier.getKey()), policy);
            if (twin != null) {
                throw site.error("tier", text, "chooses among tiers, but " + property + " and " + twin.name()
                        + " differ only in case", "Tiers are compared ignoring case: give them different names.");
            }
        }
        RateLimitPolicy defaultPolicy = null;
        if (configured.defaultTier() != null) {
            defaultPolicy = byLowerCase.get(TierSpec.normalize(configured.defaultTier()));
            if (defaultPolicy == null) {
                throw site.error("tier", text, "falls back to " + prefix + ".default-tier="
                                + configured.defaultTier() + ", which is not a configured tier",
                        "Use one of " + configured.tiers().keySet().stream().sorted().toList() + ".");
            }
        }
        return new TierSpec(expression, Map.copyOf(byLowerCase), defaultPolicy);
    }

    /** A tier's policy: its settings over the limit's ({@link LimitSettings#forTier}: never the limit's burst). */
    private static RateLimitPolicy tierPolicy(String name, LimitSettings tier, LimitSettings limit, String property,
                                              AnnotationSite site) {
        LimitSettings settings = limit.forTier(tier);
        if (settings.rate() == null) {
            throw site.error("tier", property, "has no rate, nor does the limit (annotation, instance or defaults)",
                    "Set " + property + ".rate.");
        }
        RateLimitPolicy policy;
        try {
            policy = settings.toPolicy(name);
        } catch (IllegalArgumentException e) {
            throw site.error("tier", property, "is an invalid limit: " + e.getMessage(), "Fix " + property + ".*.");
        }
        checkLease(policy, settings, site);
        return policy;
    }

    /**
     * The spec of a limit declared in configuration rather than on a method (a route): settings from
     * {@code guard.rate-limit.instances.<name>}, then the defaults; no condition, no fallback; decisions go into the
     * HTTP answer's header fields unless the settings say otherwise.
     */
    public LimitSpec forConfiguration(String name, Expression key, long permits, AnnotationSite site) {
        LimitSettings settings = instances.apply(name).orElse(defaults).orElse(BUILT_IN);
        if (settings.rate() == null) {
            throw site.error("name", name, "has no rate: neither guard.rate-limit.instances." + name
                            + ".rate nor guard.rate-limit.defaults.rate is set",
                    "Set guard.rate-limit.instances." + name + ".rate (and interval), or a default rate.");
        }
        RateLimitPolicy policy = policy(name, settings, site);
        if (permits < 1 || permits > policy.maxPermits()) {
            throw site.error("permits", Long.toString(permits), "is outside what limit '" + name
                            + "' can grant (between 1 and " + policy.maxPermits() + ")",
                    "Lower the permits or raise the rate (or burst) of '" + name + "'.");
        }
        boolean httpHeaders = settings.httpHeaders() == null || settings.httpHeaders();
        // No default message fixed here: like an annotation's, it names the policy in force when a call is refused.
        return new LimitSpec(name, policy, null, null, key, permits, null, settings.timeout(), settings.message(),
                httpHeaders, settings.shadow(), null, site, null, false, -1, settings.leaseSize(), null);
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
            String action = "Set rate on the annotation or in guard.rate-limit.instances." + name + ".rate.";
            throw site.error("rate", "0", "is no rate (a limit grants at least 1 permit per interval; 0 is the "
                            + "annotation's default, meaning none given), and neither guard.rate-limit.instances."
                            + name + ".rate nor guard.rate-limit.defaults.rate gives one",
                    ShadowedConfigFiles.hint(loaderOf(site), name).map(hint -> hint + " Or: " + action)
                            .orElse(action));
        }
        RateLimitPolicy policy;
        try {
            policy = settings.toPolicy(name);
        } catch (IllegalArgumentException e) {
            throw site.error("name", name, "resolves to an invalid limit: " + e.getMessage(),
                    "Fix the annotation or guard.rate-limit.instances." + name + ".*.");
        }
        checkLease(policy, settings, site);
        return policy;
    }

    /** A lease the limit cannot keep its promise with (an algorithm it does not support, a size above the rate). */
    private static void checkLease(RateLimitPolicy policy, LimitSettings settings, AnnotationSite site) {
        String property = "guard.rate-limit.instances." + policy.name().split("\\.")[0] + ".lease";
        String problem;
        try {
            problem = settings.leaseSize().problemWith(policy);
        } catch (IllegalArgumentException e) {
            problem = e.getMessage();
        }
        if (problem != null) {
            throw site.error("lease", settings.lease(), "cannot be used: " + problem,
                    LeaseSize.supports(policy.algorithm())
                            ? "Set the lease (the annotation's lease or " + property + ") to at most "
                            + policy.maxPermits() + ", to auto, or to off."
                            : "Set the lease (the annotation's lease or " + property + ") to off, or use TOKEN_BUCKET "
                            + "or FIXED_WINDOW.");
        }
    }

    private static ClassLoader loaderOf(AnnotationSite site) {
        ClassLoader loader = site.type() != null ? site.type().getClassLoader() : null;
        return loader != null ? loader : ClassUtils.getDefaultClassLoader();
    }

    static String defaultMessage(RateLimitPolicy policy) {
        return "Rate limit '" + policy.name() + "' allows " + policy.rate() + " requests per "
                + DurationFormat.compact(policy.interval()) + ".";
    }
}
