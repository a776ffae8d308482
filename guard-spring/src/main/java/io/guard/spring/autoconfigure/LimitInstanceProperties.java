package io.guard.spring.autoconfigure;

import io.guard.spring.ratelimit.LimitSettings;
import io.guard.spring.ratelimit.LimitTiers;


import java.util.LinkedHashMap;
import java.util.Map;

/** One named limit's settings ({@code guard.rate-limit.instances.<name>.*}): those of any limit, plus its tiers. */
public class LimitInstanceProperties extends LimitProperties {

    /**
     * Per-tier policies, chosen per call by the annotation's tier expression (e.g. tiers.free.rate=10,
     * tiers.pro.rate=1000); each tier is a policy named <name>.<tier> with its own quota per key.
     */
    private Map<String, TierProperties> tiers = new LinkedHashMap<>();

    /** The tier of a call whose tier expression yields null or a tier not configured; unset, such a call fails. */
    private String defaultTier;

    LimitTiers toTiers() {
        Map<String, LimitSettings> settings = new LinkedHashMap<>();
        tiers.forEach((tier, properties) -> settings.put(tier, properties.toSettings()));
        return new LimitTiers(settings, defaultTier == null || defaultTier.isBlank() ? null : defaultTier.trim());
    }

    public Map<String, TierProperties> getTiers() {
        return tiers;
    }

    public void setTiers(Map<String, TierProperties> tiers) {
        this.tiers = tiers;
    }

    public String getDefaultTier() {
        return defaultTier;
    }

    public void setDefaultTier(String defaultTier) {
        this.defaultTier = defaultTier;
    }
}
