package io.guard.spring.actuate;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Whether the rate-limit backend (Redis) answers: {@code DOWN} with the backend's last error while it does not.
 * While it is down each limit follows its {@code on-backend-failure} policy, so DOWN here says "limits are not
 * shared across instances right now", which operators want to see next to Redis's own health.
 */
final class RateLimitBackendHealthIndicator implements HealthIndicator {

    private final GuardRegistries registries;

    RateLimitBackendHealthIndicator(GuardRegistries registries) {
        this.registries = registries;
    }

    @Override
    public Health health() {
        return registries.backend().map(backend -> {
            Health.Builder builder = backend.up() ? Health.up() : Health.down();
            builder.withDetail("backend", backend.name());
            if (backend.breakerState() != null) {
                builder.withDetail("breakerState", backend.breakerState());
            }
            if (backend.lastError() != null) {
                builder.withDetail("lastError", backend.lastError()).withDetail("lastErrorTime", backend.lastErrorTime());
            }
            return builder.build();
        }).orElseGet(() -> Health.unknown().build());
    }
}
