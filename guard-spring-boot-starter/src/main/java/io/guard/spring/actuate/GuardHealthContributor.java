package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreaker;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.actuate.health.NamedContributor;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

/**
 * The {@code guard} health contributor: {@code circuitBreakers} with one child per breaker (read from the registry
 * on every request, so breakers created later appear) and {@code rateLimitBackend}. Grouping keeps a breaker
 * named like the backend entry from hiding it: {@code /actuator/health/guard/circuitBreakers/payment}.
 */
final class GuardHealthContributor implements CompositeHealthContributor {

    static final String CIRCUIT_BREAKERS = "circuitBreakers";
    static final String RATE_LIMIT_BACKEND = "rateLimitBackend";

    private final GuardRegistries registries;
    private final HealthContributor breakers;
    private final HealthContributor backend;

    GuardHealthContributor(GuardRegistries registries, Predicate<String> failsWhenOpen) {
        this.registries = registries;
        this.breakers = new Breakers(registries, failsWhenOpen);
        this.backend = new RateLimitBackendHealthIndicator(registries);
    }

    @Override
    public HealthContributor getContributor(String name) {
        if (CIRCUIT_BREAKERS.equals(name) && registries.breakerRegistry() != null) {
            return breakers;
        }
        if (RATE_LIMIT_BACKEND.equals(name) && registries.limiterRegistry() != null) {
            return backend;
        }
        return null;
    }

    @Override
    public Iterator<NamedContributor<HealthContributor>> iterator() {
        List<NamedContributor<HealthContributor>> children = new ArrayList<>(2);
        if (registries.breakerRegistry() != null) {
            children.add(NamedContributor.of(CIRCUIT_BREAKERS, breakers));
        }
        if (registries.limiterRegistry() != null) {
            children.add(NamedContributor.of(RATE_LIMIT_BACKEND, backend));
        }
        return children.iterator();
    }

    /** One indicator per breaker that exists now; never creates a breaker for a name in a URL. */
    private record Breakers(GuardRegistries registries, Predicate<String> failsWhenOpen)
            implements CompositeHealthContributor {

        @Override
        public HealthContributor getContributor(String name) {
            return registries.breaker(name).map(this::indicator).orElse(null);
        }

        @Override
        public Iterator<NamedContributor<HealthContributor>> iterator() {
            List<NamedContributor<HealthContributor>> children = new ArrayList<>();
            for (CircuitBreaker breaker : registries.breakers()) {
                children.add(NamedContributor.of(breaker.name(), indicator(breaker)));
            }
            return children.iterator();
        }

        private HealthContributor indicator(CircuitBreaker breaker) {
            return new CircuitBreakerHealthIndicator(breaker, failsWhenOpen.test(breaker.name()));
        }
    }
}
