package io.guard.spring.aop;

import io.guard.ratelimit.RateLimiter;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.method.GuardAnnotationException;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.CountingRateLimiter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Class-level annotations apply to public methods, together with the method's own limits; a method limit with the
 * name of a class limit replaces it, and a method's breaker replaces the class's.
 */
class AnnotationMergingTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withBean(RateLimiter.class, CountingRateLimiter::new)
            .withPropertyValues("guard.rate-limit.defaults.interval=60s")
            .withBean(Catalog.class);

    @RateLimit(name = "catalog", rate = 2)
    @CircuitBreaker(name = "catalog-breaker")
    static class Catalog {
        public String browse() {
            return "browse";
        }

        @RateLimit(name = "catalog", rate = 2, key = "#id")
        public String item(String id) {
            return id;
        }

        @RateLimit(name = "export", key = "#format", rate = 1)
        @CircuitBreaker(name = "export-breaker")
        public String export(String format) {
            return format;
        }
    }

    @Test
    void classLevelLimitsAndBreakersApplyToPublicMethods() {
        runner.run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            CountingRateLimiter limiter = context.getBean(CountingRateLimiter.class);
            catalog.export("csv");
            catalog.item("book-1");
            catalog.browse();
            assertThatThrownBy(catalog::browse).isInstanceOf(RateLimitExceededException.class);

            // export: the class's "catalog" and its own "export"; item: its own "catalog" (key #id) replaced the
            // class's; browse: the class's "catalog", whose global key export already used once.
            assertThat(limiter.requests()).extracting(CountingRateLimiter.Request::limit)
                    .containsExactly("catalog", "export", "catalog", "catalog", "catalog");
            assertThat(limiter.requests()).extracting(CountingRateLimiter.Request::key)
                    .containsExactly("global", "csv", "book-1", "global", "global");

            var breakers = context.getBean(io.guard.breaker.CircuitBreakerRegistry.class);
            // item and the permitted browse; the refused browse never reached it; export has its own breaker.
            assertThat(breakers.find("catalog-breaker").orElseThrow().snapshot().calls()).isEqualTo(2);
            assertThat(breakers.find("export-breaker").orElseThrow().snapshot().calls()).isEqualTo(1);
        });
    }

    @RateLimit(name = "shared", rate = 2)
    static class Conflicting {
        public String normal() {
            return "normal";
        }

        @RateLimit(name = "shared", rate = 1)
        public String cheaper() {
            return "cheaper";
        }
    }

    @Test
    void oneNameMustNotResolveToTwoPolicies() {
        // Two annotations resolving one name to different rates would share one quota inconsistently.
        runner.withBean(Conflicting.class).run(context -> assertThat(context.getStartupFailure())
                .isInstanceOf(GuardAnnotationException.class)
                .hasMessageContaining("name 'shared' resolves to rate 1 per 60s, SLIDING_LOG")
                .hasMessageContaining("but @RateLimit on Conflicting."));
    }
}
