package io.guard.spring.boot.health;

import io.guard.spring.actuate.GuardHealthReports;
import io.guard.spring.actuate.GuardHealthReports.Report;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthContributors;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code guard} health contributor for Spring Boot 4: {@code circuitBreakers} with one child per breaker (read
 * on every request, so breakers created later appear) and {@code rateLimitBackend}. Grouping keeps a breaker named
 * like the backend entry from hiding it: {@code /actuator/health/guard/circuitBreakers/payment}. What each child
 * reports is decided by {@link GuardHealthReports}, shared with the Boot 3 starter.
 */
public final class GuardHealthContributor implements CompositeHealthContributor {

    private final GuardHealthReports reports;
    private final HealthContributor breakers;
    private final HealthContributor backend;

    public GuardHealthContributor(GuardHealthReports reports) {
        this.reports = reports;
        this.breakers = new Breakers(reports);
        this.backend = (HealthIndicator) () -> health(reports.backend());
    }

    @Override
    public HealthContributor getContributor(String name) {
        if (GuardHealthReports.CIRCUIT_BREAKERS.equals(name) && reports.hasBreakers()) {
            return breakers;
        }
        if (GuardHealthReports.RATE_LIMIT_BACKEND.equals(name) && reports.hasBackend()) {
            return backend;
        }
        return null;
    }

    @Override
    public Stream<HealthContributors.Entry> stream() {
        List<HealthContributors.Entry> children = new ArrayList<>(2);
        if (reports.hasBreakers()) {
            children.add(new HealthContributors.Entry(GuardHealthReports.CIRCUIT_BREAKERS, breakers));
        }
        if (reports.hasBackend()) {
            children.add(new HealthContributors.Entry(GuardHealthReports.RATE_LIMIT_BACKEND, backend));
        }
        return children.stream();
    }

    static Health health(Report report) {
        return Health.status(new Status(report.status(), report.description() == null ? "" : report.description()))
                .withDetails(report.details()).build();
    }

    /** One indicator per breaker that exists now; never creates a breaker for a name in a URL. */
    private record Breakers(GuardHealthReports reports) implements CompositeHealthContributor {

        @Override
        public HealthContributor getContributor(String name) {
            return reports.breaker(name).isPresent() ? indicator(name) : null;
        }

        @Override
        public Stream<HealthContributors.Entry> stream() {
            return reports.breakerNames().stream().map(name -> new HealthContributors.Entry(name, indicator(name)));
        }

        private HealthIndicator indicator(String name) {
            return () -> reports.breaker(name).map(GuardHealthContributor::health)
                    .orElseGet(() -> Health.unknown().build());
        }
    }
}
