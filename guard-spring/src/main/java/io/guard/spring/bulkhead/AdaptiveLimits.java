package io.guard.spring.bulkhead;

import io.guard.bulkhead.ConcurrencyLimit;
import org.springframework.util.ClassUtils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads {@link AdaptiveLimitProperties}: what is wrong with them (each setting named, for the start-up report), and
 * the {@link ConcurrencyLimit} they describe. Netflix's concurrency-limits is an optional dependency: this class
 * touches it only through {@link NetflixLimits}, after checking that it is on the class path.
 *
 * <p>Internal: public for the auto-configuration and its start-up report; not an API.
 */
public final class AdaptiveLimits {

    /** The value of {@code max-concurrent-calls} that asks for an adaptive limit. */
    public static final String ADAPTIVE = "adaptive";

    /** The dependency an adaptive limit needs, as a build names it. */
    public static final String DEPENDENCY = "com.netflix.concurrency-limits:concurrency-limits-core";
    /** The library's version Guard is built and tested with (its pom's {@code concurrency-limits.version}). */
    public static final String TESTED_VERSION = "0.5.4";

    static final int DEFAULT_INITIAL_LIMIT = 20;
    static final int DEFAULT_MIN_LIMIT = 1;
    static final int DEFAULT_MAX_LIMIT = 200;
    static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

    /**
     * One setting that cannot work.
     *
     * @param property the setting's name under {@code adaptive-limit}, e.g. {@code min-limit}; empty for a clash
     * @param value    the value; null for a clash
     * @param reason   what is wrong and what is allowed
     */
    public record Problem(String property, Object value, String reason) {
    }

    private AdaptiveLimits() {
    }

    /** Whether {@code value} (a {@code max-concurrent-calls}) asks for an adaptive limit. */
    public static boolean isAdaptive(String value) {
        return value != null && ADAPTIVE.equals(value.trim().toLowerCase(Locale.ROOT));
    }

    /** Whether Netflix's concurrency-limits is on the class path. */
    public static boolean available() {
        return ClassUtils.isPresent("com.netflix.concurrency.limits.Limit", null);
    }

    /** Why an adaptive limit cannot start without the library, and what to add. */
    public static String missingDependency() {
        return "an adaptive limit runs Netflix's concurrency-limits algorithms, and " + DEPENDENCY
                + " is not on the class path; add it (Guard declares it optional), e.g. <dependency><groupId>"
                + "com.netflix.concurrency-limits</groupId><artifactId>concurrency-limits-core</artifactId>"
                + "<version>" + TESTED_VERSION + "</version></dependency> (the version Guard is tested with; "
                + "Guard's BOM does not manage it)";
    }

    /** The limit {@code settings} describe (null: every default). */
    public static ConcurrencyLimit create(AdaptiveLimitProperties settings) {
        if (!available()) {
            throw new IllegalStateException(missingDependency());
        }
        return NetflixLimits.create(settings != null ? settings : new AdaptiveLimitProperties());
    }

    /**
     * An instance's settings over the defaults', setting by setting, as every other breaker setting inherits; either
     * may be null.
     */
    public static AdaptiveLimitProperties inherit(AdaptiveLimitProperties instance, AdaptiveLimitProperties defaults) {
        if (instance == null || defaults == null) {
            return instance != null ? instance : defaults;
        }
        AdaptiveLimitProperties merged = new AdaptiveLimitProperties();
        merged.setAlgorithm(first(instance.getAlgorithm(), defaults.getAlgorithm()));
        merged.setInitialLimit(first(instance.getInitialLimit(), defaults.getInitialLimit()));
        merged.setMinLimit(first(instance.getMinLimit(), defaults.getMinLimit()));
        merged.setMaxLimit(first(instance.getMaxLimit(), defaults.getMaxLimit()));
        merged.setSmoothing(first(instance.getSmoothing(), defaults.getSmoothing()));
        merged.setRttTolerance(first(instance.getRttTolerance(), defaults.getRttTolerance()));
        merged.setBackoffRatio(first(instance.getBackoffRatio(), defaults.getBackoffRatio()));
        merged.setTimeout(first(instance.getTimeout(), defaults.getTimeout()));
        merged.setRetryAfter(first(instance.getRetryAfter(), defaults.getRetryAfter()));
        return merged;
    }

    private static <T> T first(T value, T fallback) {
        return value != null ? value : fallback;
    }

    /** The {@code Retry-After} of a refusal under these settings; null when none is sent. */
    public static Duration retryAfter(AdaptiveLimitProperties settings) {
        Duration set = settings != null ? settings.getRetryAfter() : null;
        Duration retryAfter = set != null ? set : DEFAULT_RETRY_AFTER;
        return retryAfter.isZero() ? null : retryAfter;
    }

    /** Every setting of {@code p} that cannot work, each on its own. */
    public static List<Problem> problems(AdaptiveLimitProperties p) {
        List<Problem> found = new ArrayList<>();
        AdaptiveAlgorithm algorithm = algorithm(p);
        atLeastOne("initial-limit", p.getInitialLimit(), found);
        atLeastOne("min-limit", p.getMinLimit(), found);
        atLeastOne("max-limit", p.getMaxLimit(), found);
        only("min-limit", p.getMinLimit(), algorithm, EnumSet.of(AdaptiveAlgorithm.GRADIENT2, AdaptiveAlgorithm.AIMD),
                found);
        only("smoothing", p.getSmoothing(), algorithm,
                EnumSet.of(AdaptiveAlgorithm.GRADIENT2, AdaptiveAlgorithm.VEGAS), found);
        only("rtt-tolerance", p.getRttTolerance(), algorithm, EnumSet.of(AdaptiveAlgorithm.GRADIENT2), found);
        only("backoff-ratio", p.getBackoffRatio(), algorithm,
                EnumSet.of(AdaptiveAlgorithm.AIMD, AdaptiveAlgorithm.VEGAS), found);
        only("timeout", p.getTimeout(), algorithm, EnumSet.of(AdaptiveAlgorithm.AIMD), found);
        if (p.getSmoothing() != null && !(p.getSmoothing() > 0 && p.getSmoothing() <= 1)) {
            found.add(new Problem("smoothing", p.getSmoothing(), "must be in (0, 1]"));
        }
        if (p.getRttTolerance() != null && !(p.getRttTolerance() >= 1)) {
            found.add(new Problem("rtt-tolerance", p.getRttTolerance(), "must be at least 1"));
        }
        if (p.getBackoffRatio() != null && !(p.getBackoffRatio() >= 0.5 && p.getBackoffRatio() < 1)) {
            found.add(new Problem("backoff-ratio", p.getBackoffRatio(), "must be in [0.5, 1)"));
        }
        if (p.getTimeout() != null && (p.getTimeout().isZero() || p.getTimeout().isNegative())) {
            found.add(new Problem("timeout", p.getTimeout(), "must be positive"));
        }
        if (p.getRetryAfter() != null && p.getRetryAfter().isNegative()) {
            found.add(new Problem("retry-after", p.getRetryAfter(), "must not be negative: 0 sends no Retry-After"));
        }
        int min = minLimit(p);
        int initial = initialLimit(p);
        int max = maxLimit(p);
        if (found.isEmpty() && (min > initial || initial > max)) {
            found.add(new Problem("", null, "min-limit (" + min + ") <= initial-limit (" + initial
                    + ") <= max-limit (" + max + ") does not hold"));
        }
        return found;
    }

    static AdaptiveAlgorithm algorithm(AdaptiveLimitProperties p) {
        return p.getAlgorithm() != null ? p.getAlgorithm() : AdaptiveAlgorithm.GRADIENT2;
    }

    static int initialLimit(AdaptiveLimitProperties p) {
        return p.getInitialLimit() != null ? p.getInitialLimit() : DEFAULT_INITIAL_LIMIT;
    }

    static int minLimit(AdaptiveLimitProperties p) {
        return p.getMinLimit() != null ? p.getMinLimit() : DEFAULT_MIN_LIMIT;
    }

    static int maxLimit(AdaptiveLimitProperties p) {
        return p.getMaxLimit() != null ? p.getMaxLimit() : DEFAULT_MAX_LIMIT;
    }

    private static void atLeastOne(String property, Integer value, List<Problem> found) {
        if (value != null && value < 1) {
            found.add(new Problem(property, value, "must be at least 1"));
        }
    }

    private static void only(String property, Object value, AdaptiveAlgorithm algorithm, Set<AdaptiveAlgorithm> having,
                             List<Problem> found) {
        if (value != null && !having.contains(algorithm)) {
            found.add(new Problem(property, value, "is not a setting of " + algorithm.label() + ", only of "
                    + having.stream().map(AdaptiveAlgorithm::label).toList()));
        }
    }
}
