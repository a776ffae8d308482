package io.guard.spring.test;

import io.guard.ratelimit.LimiterStats;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.local.LocalRateLimiter;
import org.springframework.context.ApplicationContext;

/**
 * Test helper for an application that uses Guard: starts each test case with full quotas and tells how many calls a
 * limit permitted and rejected, without reaching into Guard's internals. Works on the in-process backend, the one a
 * test without Redis has (a {@code @SpringBootTest} with {@code guard.rate-limit.backend=local}, or a slice with
 * {@link AutoConfigureGuard}); tests against a real Redis reset by deleting the keys under their
 * {@code guard.rate-limit.key-prefix}.
 *
 * <p>One key's quota (read without spending, or reset) is the application API
 * {@link io.guard.spring.ratelimit.RateLimitQuotas}, which works on both backends; this helper does not wrap it,
 * since forgetting <em>every</em> key at once is a test's need only and exists in process only.
 *
 * <pre>{@code
 * @Autowired ApplicationContext context;
 * @BeforeEach void fullQuotas() { GuardQuotas.of(context).reset(); }
 * }</pre>
 */
public final class GuardQuotas {

    private final RateLimiterRegistry limiters;

    private GuardQuotas(RateLimiterRegistry limiters) {
        this.limiters = limiters;
    }

    /** The quotas of the application in {@code context}. */
    public static GuardQuotas of(ApplicationContext context) {
        return new GuardQuotas(context.getBean(RateLimiterRegistry.class));
    }

    /** Forgets every quota, so the next call of every limit and key starts full. */
    public void reset() {
        if (!(limiters.backend() instanceof LocalRateLimiter local)) {
            throw new IllegalStateException("GuardQuotas.reset() needs the in-process backend, but this application "
                    + "counts limits in " + limiters.backend().backendName() + "; set guard.rate-limit.backend=local "
                    + "in the test, or delete the keys under guard.rate-limit.key-prefix from the test's Redis");
        }
        local.reset();
    }

    /** How many calls the named limit permitted, rejected, and decided without its backend so far. */
    public LimiterStats stats(String limit) {
        if (limiters.find(limit).isEmpty()) {
            throw new IllegalArgumentException("No rate limit named '" + limit + "'; limits: "
                    + limiters.policies().stream().map(p -> p.name()).sorted().toList());
        }
        return limiters.stats(limit);
    }
}
