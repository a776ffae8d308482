package io.guard.spring.ratelimit;

import java.util.Map;

/**
 * The tiers configured for one limit ({@code guard.rate-limit.instances.<name>.tiers.*}): what a call's tier
 * expression chooses from. A bounded set, known at start-up, so that every tier is validated before the first call
 * and each tier's meters and header policies are few.
 *
 * @param tiers       the settings of each tier by its configured name; a null field comes from the limit
 * @param defaultTier the tier of a call whose expression yields null or an unconfigured tier; null: such a call fails
 */
public record LimitTiers(Map<String, LimitSettings> tiers, String defaultTier) {

    /** A limit without tiers. */
    public static final LimitTiers NONE = new LimitTiers(Map.of(), null);

    public LimitTiers {
        tiers = Map.copyOf(tiers);
    }

    public boolean isEmpty() {
        return tiers.isEmpty() && defaultTier == null;
    }
}
