package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.BreakerProperties;
import io.guard.spring.autoconfigure.GuardProperties;
import io.guard.spring.autoconfigure.ServerLimitProperties;
import io.guard.spring.bulkhead.AdaptiveLimitProperties;
import io.guard.spring.bulkhead.AdaptiveLimits;

import java.util.List;

/**
 * The bulkhead part of the start-up report: a {@code max-concurrent-calls} that is neither a bound nor
 * {@code adaptive}, an adaptive limit (a breaker's or {@code guard.server-limit}) without Netflix's concurrency-limits
 * on the class path, and each {@code adaptive-limit} setting that cannot work.
 */
final class BulkheadMistakes {

    private static final String ADD_DEPENDENCY = "Add " + AdaptiveLimits.DEPENDENCY
            + " to the application's dependencies, or use a fixed bound.";

    private BulkheadMistakes() {
    }

    /** The mistakes of one breaker's (or the defaults') bulkhead settings under {@code prefix}. */
    static void breaker(BreakerProperties properties, String prefix, List<PropertyMistakes.Mistake> found) {
        String max = properties.getMaxConcurrentCalls();
        if (AdaptiveLimits.isAdaptive(max)) {
            if (!AdaptiveLimits.available()) {
                found.add(new PropertyMistakes.Mistake(prefix + ".max-concurrent-calls", max,
                        AdaptiveLimits.missingDependency(), ADD_DEPENDENCY));
            }
        } else if (max != null) {
            bound(max.trim(), prefix + ".max-concurrent-calls", found);
        }
        adaptive(properties.getAdaptiveLimit(), prefix + ".adaptive-limit", found);
    }

    /** The mistakes of {@code guard.server-limit}. */
    static void serverLimit(GuardProperties properties, List<PropertyMistakes.Mistake> found) {
        ServerLimitProperties server = properties.getServerLimit();
        if (server.isEnabled() && !AdaptiveLimits.available()) {
            found.add(new PropertyMistakes.Mistake("guard.server-limit.enabled", true,
                    AdaptiveLimits.missingDependency(), ADD_DEPENDENCY));
        }
        adaptive(server.getAdaptiveLimit(), "guard.server-limit.adaptive-limit", found);
    }

    private static void bound(String value, String property, List<PropertyMistakes.Mistake> found) {
        try {
            if (Integer.parseInt(value) < 0) {
                found.add(new PropertyMistakes.Mistake(property, value,
                        "must not be negative: 0 for no bulkhead, 'adaptive' for a limit that moves, else the bound"));
            }
        } catch (NumberFormatException e) {
            found.add(new PropertyMistakes.Mistake(property, value,
                    "must be a number of calls (0 for no bulkhead) or 'adaptive' for a limit that moves"));
        }
    }

    private static void adaptive(AdaptiveLimitProperties settings, String prefix,
                                 List<PropertyMistakes.Mistake> found) {
        if (settings == null) {
            return;
        }
        for (AdaptiveLimits.Problem problem : AdaptiveLimits.problems(settings)) {
            String property = problem.property().isEmpty() ? prefix : prefix + "." + problem.property();
            found.add(new PropertyMistakes.Mistake(property, problem.value(), problem.reason()));
        }
    }
}
