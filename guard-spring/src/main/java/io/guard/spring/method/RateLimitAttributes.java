package io.guard.spring.method;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.lease.LeaseSize;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.ratelimit.LimitSettings;
import org.springframework.boot.convert.DurationStyle;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * Reads the string attributes of {@link RateLimit} into typed {@link LimitSettings}, naming the attribute and value
 * of anything that does not parse.
 */
final class RateLimitAttributes {

    private RateLimitAttributes() {
    }

    static LimitSettings read(RateLimit annotation, AnnotationSite site) {
        if (annotation.rate() < 0) {
            throw site.error("rate", Long.toString(annotation.rate()), "must be at least 1 (0 = from configuration)",
                    "Set a positive rate or leave it out and configure guard.rate-limit.instances."
                            + annotation.name() + ".rate.");
        }
        Long rate = annotation.rate() == 0 ? null : annotation.rate();
        Duration interval = duration(site, "interval", annotation.interval());
        Algorithm algorithm = enumValue(site, "algorithm", annotation.algorithm(), Algorithm.class);
        Scope scope = enumValue(site, "scope", annotation.scope(), Scope.class);
        Duration timeout = duration(site, "timeout", annotation.timeout());
        if (timeout != null && timeout.isNegative()) {
            throw site.error("timeout", annotation.timeout(), "must not be negative", "Use 0 to refuse at once.");
        }
        String message = annotation.message().isEmpty() ? null : annotation.message();
        return new LimitSettings(rate, interval, algorithm, null, scope, null, null, timeout, message, null,
                null, null, null, lease(annotation, site));
    }

    /** {@code off}, a number of permits or {@code auto}; empty = not set. */
    private static String lease(RateLimit annotation, AnnotationSite site) {
        String text = annotation.lease().trim();
        if (text.isEmpty()) {
            return null;
        }
        try {
            LeaseSize.parse(text);
        } catch (IllegalArgumentException e) {
            throw site.error("lease", annotation.lease(), "is not off, auto or a number of permits of at least 1",
                    "Use lease = \"auto\" to size leases from the traffic, a number such as \"20\", or \"off\".");
        }
        return text;
    }

    /** Parses "60s", "500ms", "PT1M" or a plain number of milliseconds; empty means "not set". */
    static Duration duration(AnnotationSite site, String attribute, String text) {
        if (text.isBlank()) {
            return null;
        }
        try {
            return DurationStyle.detectAndParse(text.trim());
        } catch (IllegalArgumentException e) {
            throw site.error(attribute, text, "is not a duration",
                    "Write a duration such as \"500ms\", \"60s\", \"5m\" or \"PT1M\".");
        }
    }

    /** Accepts enum names in any case, with '-' for '_' ({@code token-bucket}); empty means "not set". */
    static <E extends Enum<E>> E enumValue(AnnotationSite site, String attribute, String text, Class<E> type) {
        if (text.isBlank()) {
            return null;
        }
        String normalized = text.trim().replace('-', '_').toUpperCase(Locale.ROOT);
        return Arrays.stream(type.getEnumConstants())
                .filter(constant -> constant.name().equals(normalized))
                .findFirst()
                .orElseThrow(() -> site.error(attribute, text, "is not one of "
                                + Arrays.toString(type.getEnumConstants()),
                        "Use one of the listed values."));
    }
}
