package io.guard.spring.ratelimit;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimitPolicy;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An operator's run-time change to one limit (a policy name: {@code orders}, or a tier's {@code api.pro}): each
 * field it sets replaces the configured one, each null field keeps it. Kept as text in a {@link
 * io.guard.ratelimit.LimitOverrideStore} ({@code rate=10;interval=PT1M;...}), so every instance can read it.
 *
 * @param rate      permits per interval, or null
 * @param interval  the interval, or null
 * @param algorithm the algorithm, or null
 * @param shadow    whether the limit only records, or null
 * @param source    who made it ({@code actuator})
 * @param at        when it was made
 */
public record LimitOverride(Long rate, Duration interval, Algorithm algorithm, Boolean shadow, String source,
                            Instant at) {

    /** The fields this override sets, as a layer of settings; the others do not say. */
    LimitSettings patch() {
        return new LimitSettings(rate, interval, algorithm, null, null, null, null, null, null, null, shadow, null,
                null, null);
    }

    /**
     * The configured policy with this override's fields in place (the burst as {@link LimitSettings} layers it);
     * validated like any policy.
     */
    RateLimitPolicy applyTo(RateLimitPolicy configured) {
        return patch().orElse(LimitSettings.of(configured)).toPolicy(configured.name());
    }

    String encode() {
        Map<String, String> fields = new LinkedHashMap<>();
        if (rate != null) {
            fields.put("rate", rate.toString());
        }
        if (interval != null) {
            fields.put("interval", interval.toString());
        }
        if (algorithm != null) {
            fields.put("algorithm", algorithm.name());
        }
        if (shadow != null) {
            fields.put("shadow", shadow.toString());
        }
        fields.put("source", source.replace(';', ',').replace('=', ':'));
        fields.put("at", at.toString());
        StringBuilder out = new StringBuilder();
        fields.forEach((k, v) -> out.append(out.isEmpty() ? "" : ";").append(k).append('=').append(v));
        return out.toString();
    }

    /** @throws IllegalArgumentException when the text is not an override this version can read */
    static LimitOverride decode(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String part : text.split(";")) {
            int eq = part.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("not an override: '" + text + "'");
            }
            fields.put(part.substring(0, eq), part.substring(eq + 1));
        }
        try {
            return new LimitOverride(
                    fields.containsKey("rate") ? Long.valueOf(fields.get("rate")) : null,
                    fields.containsKey("interval") ? Duration.parse(fields.get("interval")) : null,
                    fields.containsKey("algorithm")
                            ? Algorithm.valueOf(fields.get("algorithm").toUpperCase(Locale.ROOT)) : null,
                    fields.containsKey("shadow") ? Boolean.valueOf(fields.get("shadow")) : null,
                    fields.getOrDefault("source", "unknown"),
                    fields.containsKey("at") ? Instant.parse(fields.get("at")) : Instant.EPOCH);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not an override: '" + text + "' (" + e.getMessage() + ")", e);
        }
    }
}
