package io.guard.spring.actuate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;

/**
 * Whether the {@code guard} endpoint's write operation was granted with the access model. On Spring Boot 3.4+ the
 * legacy {@code management.endpoint.guard.enabled=true} (a Resilience4j habit) is translated into unrestricted
 * access and so silently grants writes; Guard refuses writes granted that way only, and says which property to set.
 *
 * @param refusal why writes are refused, or null when they are not
 */
record WriteAccess(String refusal) {

    static final String LEGACY = "management.endpoint.guard.enabled";
    static final String ACCESS = "management.endpoint.guard.access";
    static final String DEFAULT_ACCESS = "management.endpoints.access.default";

    private static final Logger log = LoggerFactory.getLogger(WriteAccess.class);

    static WriteAccess of(Environment environment) {
        if (environment.containsProperty(LEGACY) && !environment.containsProperty(ACCESS)
                && !environment.containsProperty(DEFAULT_ACCESS)) {
            String refusal = LEGACY + " does not grant the write operation of the guard endpoint: set " + ACCESS
                    + "=unrestricted (or " + DEFAULT_ACCESS + ") to allow breaker state changes and quota resets,"
                    + " or remove " + LEGACY;
            log.warn("{}; state changes and quota resets over the guard endpoint answer 403 until then", refusal);
            return new WriteAccess(refusal);
        }
        return new WriteAccess(null);
    }

    boolean refused() {
        return refusal != null;
    }
}
