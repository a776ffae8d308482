package io.guard.spring.boot.health;

import io.guard.spring.actuate.GuardHealthReports;
import io.guard.spring.actuate.GuardHealthReports.Report;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.NamedContributor;
import org.springframework.boot.actuate.health.Status;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The {@code guard} health contributor for Spring Boot 3.5: {@code circuitBreakers} with one child per breaker (read
 * on every request, so breakers created later appear) and {@code rateLimitBackend}. What each child reports is
 * decided by {@link GuardHealthReports}, shared with the Boot 4 starter.
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
    public Iterator<NamedContributor<HealthContributor>> iterator() {
        List<NamedContributor<HealthContributor>> children = new ArrayList<>(2);
        if (reports.hasBreakers()) {
            children.add(NamedContributor.of(GuardHealthReports.CIRCUIT_BREAKERS, breakers));
        }
        if (reports.hasBackend()) {
            children.add(NamedContributor.of(GuardHealthReports.RATE_LIMIT_BACKEND, backend));
        }
        return children.iterator();
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
        public Iterator<NamedContributor<HealthContributor>> iterator() {
            return reports.breakerNames().stream()
                    .map(name -> NamedContributor.of(name, (HealthContributor) indicator(name))).iterator();
        }

        private HealthIndicator indicator(String name) {
            return () -> reports.breaker(name).map(GuardHealthContributor::health)
                    .orElseGet(() -> Health.unknown().build());
        }
    }
}
