package io.guard.spring.autoconfigure;

import io.guard.spring.bulkhead.AdaptiveLimitProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code guard.server-limit}: an adaptive bound on the requests the whole server handles at once (Spring MVC and
 * WebFlux), refusing the rest at once with 503 and {@code Retry-After} before they queue.
 */
public class ServerLimitProperties {

    /** Whether incoming requests go through the server-wide adaptive limit (bulkhead 'server') (default false). */
    private boolean enabled;

    /** The adaptive limit's algorithm and settings (default: Gradient2 from 20 requests within [1, 200], Retry-After 1s). */
    @NestedConfigurationProperty
    private AdaptiveLimitProperties adaptiveLimit = new AdaptiveLimitProperties();

    /** Path patterns the limit leaves alone, so that health checks answer under load (default /actuator/**). */
    private List<String> excludedPaths = new ArrayList<>(List.of("/actuator/**"));

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public AdaptiveLimitProperties getAdaptiveLimit() {
        return adaptiveLimit;
    }

    public void setAdaptiveLimit(AdaptiveLimitProperties adaptiveLimit) {
        this.adaptiveLimit = adaptiveLimit;
    }

    public List<String> getExcludedPaths() {
        return excludedPaths;
    }

    public void setExcludedPaths(List<String> excludedPaths) {
        this.excludedPaths = excludedPaths;
    }
}
