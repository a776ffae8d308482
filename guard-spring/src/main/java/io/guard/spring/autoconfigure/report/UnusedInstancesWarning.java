package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardProperties;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Warns, once the application has started and every annotation has been resolved, about each
 * {@code guard.rate-limit.instances.<name>} and {@code guard.circuit-breaker.instances.<name>} that no limit or breaker
 * uses, naming the closest name in use: {@code owner-serch} next to an annotation naming {@code owner-search} is a
 * typo whose settings silently never apply. A warning, not a failure, because code may still create a breaker or
 * limit of that name later.
 *
 * <p>Internal: public for the auto-configuration, which declares it as a bean; not an API.
 */
public class UnusedInstancesWarning implements ApplicationListener<ContextRefreshedEvent> {

    private static final Logger log = LoggerFactory.getLogger(UnusedInstancesWarning.class);

    private final GuardProperties properties;
    private final CircuitBreakerRegistry breakers;
    private final RateLimiterRegistry limiters;

    public UnusedInstancesWarning(GuardProperties properties, CircuitBreakerRegistry breakers,
                                  RateLimiterRegistry limiters) {
        this.properties = properties;
        this.breakers = breakers;
        this.limiters = limiters;
    }

    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
        warnings().forEach(log::warn);
    }

    /** One sentence per configured name nothing uses. */
    List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        Set<String> limits = limiters.policies().stream().map(RateLimitPolicy::name)
                .collect(Collectors.toCollection(HashSet::new));
        // A tiered limit registers one policy per tier (<name>.<tier>), never <name> itself.
        properties.getRateLimit().getInstances().forEach((name, instance) -> {
            if (instance.getTiers().keySet().stream().anyMatch(tier -> limits.contains(name + "." + tier))) {
                limits.add(name);
            }
        });
        Set<String> circuits = breakers.all().stream().map(CircuitBreaker::name).collect(Collectors.toSet());
        unused("guard.rate-limit.instances", properties.getRateLimit().getInstances().keySet(), limits, "@RateLimit",
                warnings);
        unused("guard.circuit-breaker.instances", properties.getCircuitBreaker().getInstances().keySet(), circuits,
                "@CircuitBreaker", warnings);
        return warnings;
    }

    private static void unused(String prefix, Collection<String> configured, Set<String> used, String annotation,
                               List<String> warnings) {
        for (String name : configured) {
            if (!used.contains(name)) {
                warnings.add(prefix + "." + name + " is configured but no " + annotation + " (nor code) uses the name '"
                        + name + "', so these settings apply to nothing"
                        + closest(name, used).map(near -> "; did you mean '" + near + "'?").orElse("."));
            }
        }
    }

    static Optional<String> closest(String name, Collection<String> candidates) {
        return candidates.stream()
                .filter(candidate -> distance(name, candidate) <= Math.max(2, name.length() / 3))
                .min(Comparator.comparingInt((String candidate) -> distance(name, candidate))
                        .thenComparing(Comparator.naturalOrder()));
    }

    /** Levenshtein distance: insertions, deletions and substitutions (the same as for unknown property names). */
    static int distance(String a, String b) {
        return GuardPropertyNames.distance(a, b);
    }
}
