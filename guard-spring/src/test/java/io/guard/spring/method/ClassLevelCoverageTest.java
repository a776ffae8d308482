package io.guard.spring.method;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.RateLimiter;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.CountingRateLimiter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A class-level annotation covers the class's own public business methods: not {@code Object}'s methods
 * ({@code toString}, {@code equals}, {@code hashCode}), not accessors of the class's fields.
 */
class ClassLevelCoverageTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withUserConfiguration(Services.class);

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        RateLimiter countingRateLimiter() {
            return new CountingRateLimiter();
        }

        @Bean
        Catalog catalog() {
            return new Catalog();
        }

        @Bean
        Ledger ledger() {
            return new Ledger();
        }

        @Bean
        Mailer mailer() {
            return new Mailer();
        }
    }

    @CircuitBreaker(name = "catalog", fallbackMethod = "unavailable")
    static class Catalog {
        private String region = "eu";

        public String item(String sku) {
            return "item " + sku;
        }

        public String getRegion() {
            return region;
        }

        public void setRegion(String region) {
            this.region = region;
        }

        @SuppressWarnings("unused")
        private String unavailable(String sku, Throwable e) {
            return "unavailable " + sku;
        }

        @Override
        public String toString() {
            return "Catalog(" + region + ")";
        }

        @Override
        public boolean equals(Object other) {
            return other == this;
        }

        @Override
        public int hashCode() {
            return 7;
        }
    }

    @CircuitBreaker(name = "ledger")
    static class Ledger {
        public long balance() {
            return 0;
        }

        @Override
        public String toString() {
            return "Ledger";
        }
    }

    @RateLimit(name = "mail", rate = 1)
    static class Mailer {
        public String send(String to) {
            return "sent " + to;
        }

        @Override
        public String toString() {
            return "Mailer";
        }
    }

    @Test
    void aClassLevelFallbackDoesNotHaveToFitToStringOrAccessors() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            Catalog catalog = context.getBean(Catalog.class);
            context.getBean(CircuitBreakerRegistry.class).circuitBreaker("catalog").transitionToForcedOpenState();

            assertThat(catalog.item("a")).isEqualTo("unavailable a");
            assertThat(catalog.toString()).isEqualTo("Catalog(eu)");
            assertThat(catalog.getRegion()).isEqualTo("eu");
        });
    }

    @Test
    void objectMethodsAndAccessorsAreNotBreakerCalls() {
        runner.run(context -> {
            Catalog catalog = context.getBean(Catalog.class);
            var breaker = context.getBean(CircuitBreakerRegistry.class).circuitBreaker("catalog");
            catalog.toString();
            catalog.getRegion();
            catalog.setRegion("us");
            assertThat(breaker.snapshot().calls()).isZero();
            catalog.item("a");
            assertThat(breaker.snapshot().calls()).isEqualTo(1);
        });
    }

    @Test
    void aClassLevelRateLimitSpendsNoPermitOnToString() {
        runner.run(context -> {
            Mailer mailer = context.getBean(Mailer.class);
            assertThat(mailer.toString()).isEqualTo("Mailer");
            assertThat(mailer.toString()).isEqualTo("Mailer");
            assertThat(mailer.send("a")).isEqualTo("sent a");
            assertThatThrownBy(() -> mailer.send("b")).isInstanceOf(RateLimitExceededException.class);
            assertThat(context.getBean(CountingRateLimiter.class).requests()).hasSize(2);
        });
    }

    @Test
    void aRefusingBreakerStillLetsTheBeanBeLogged() {
        runner.run(context -> {
            context.getBean(CircuitBreakerRegistry.class).circuitBreaker("ledger").transitionToForcedOpenState();
            Ledger ledger = context.getBean(Ledger.class);
            assertThat(String.valueOf(ledger)).isEqualTo("Ledger");
            assertThatThrownBy(ledger::balance).isInstanceOf(CallNotPermittedException.class);
        });
    }
}
