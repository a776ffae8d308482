package io.guard.spring.aop;

import io.guard.ratelimit.RateLimiter;
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

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateLimitAspectTest {

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
        OrderService orderService() {
            return new OrderService();
        }
    }

    static class OrderService {
        @RateLimit(name = "per-user", key = "#userId", rate = 2, interval = "60s")
        public String submit(String userId) {
            return "ok " + userId;
        }

        @RateLimit(name = "wide", rate = 3)
        @RateLimit(name = "narrow", key = "#id", rate = 1)
        public String both(String id) {
            return "both " + id;
        }

        @RateLimit(name = "weighted", rate = 5, permits = "#n")
        public int take(int n) {
            return n;
        }

        @RateLimit(name = "async", rate = 1)
        public CompletableFuture<String> async() {
            return CompletableFuture.completedFuture("async");
        }

        @RateLimit(name = "waiting", rate = 1, interval = "100ms", timeout = "2s", key = "'k'")
        public String patient() {
            return "waited";
        }
    }

    @Test
    void limitsPerResolvedKeyAndNamesTheLimitThatRefused() {
        runner.run(context -> {
            OrderService service = context.getBean(OrderService.class);
            assertThat(service.submit("alice")).isEqualTo("ok alice");
            assertThat(service.submit("alice")).isEqualTo("ok alice");
            assertThat(service.submit("bob")).isEqualTo("ok bob");

            assertThatThrownBy(() -> service.submit("alice"))
                    .isInstanceOfSatisfying(RateLimitExceededException.class, e -> {
                        assertThat(e.policyName()).isEqualTo("per-user");
                        assertThat(e.decision().allowed()).isFalse();
                        assertThat(e.decision().retryAfter()).isEqualTo(Duration.ofSeconds(60));
                        assertThat(e).hasMessage("Rate limit 'per-user' allows 2 requests per 60s.");
                    });
        });
    }

    @Test
    void repeatedLimitsAreAllCheckedInOrderAndTheFirstRefusalStopsTheCall() {
        runner.run(context -> {
            OrderService service = context.getBean(OrderService.class);
            CountingRateLimiter limiter = context.getBean(CountingRateLimiter.class);
            assertThat(service.both("x")).isEqualTo("both x");

            assertThatThrownBy(() -> service.both("x"))
                    .isInstanceOfSatisfying(RateLimitExceededException.class,
                            e -> assertThat(e.policyName()).isEqualTo("narrow"));
            assertThat(service.both("y")).isEqualTo("both y");
            // "wide" granted the refused call's permit before "narrow" refused: no refund (documented).
            assertThatThrownBy(() -> service.both("z"))
                    .isInstanceOfSatisfying(RateLimitExceededException.class,
                            e -> assertThat(e.policyName()).isEqualTo("wide"));
            assertThat(limiter.requests()).extracting(CountingRateLimiter.Request::limit)
                    .containsExactly("wide", "narrow", "wide", "narrow", "wide", "narrow", "wide");
            assertThat(limiter.requests()).extracting(CountingRateLimiter.Request::key)
                    .containsExactly("global", "x", "global", "x", "global", "y", "global");
        });
    }

    @Test
    void permitsComeFromSpel() {
        runner.run(context -> {
            OrderService service = context.getBean(OrderService.class);
            assertThat(service.take(3)).isEqualTo(3);
            assertThatThrownBy(() -> service.take(3)).isInstanceOf(RateLimitExceededException.class);
            assertThat(service.take(2)).isEqualTo(2);
            assertThatThrownBy(() -> service.take(6)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'weighted'");
        });
    }

    @Test
    void completionStageMethodsFailTheStageInsteadOfThrowing() {
        runner.run(context -> {
            OrderService service = context.getBean(OrderService.class);
            assertThat(service.async().join()).isEqualTo("async");
            CompletableFuture<String> refused = service.async();
            assertThatThrownBy(refused::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(RateLimitExceededException.class);
        });
    }

    @Test
    void aTimeoutWaitsForThePermitInsteadOfRefusing() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
                .withPropertyValues("guard.rate-limit.backend=local")
                .withBean(OrderService.class)
                .run(context -> {
                    OrderService service = context.getBean(OrderService.class);
                    assertThat(service.patient()).isEqualTo("waited");
                    long start = System.nanoTime();
                    assertThat(service.patient()).isEqualTo("waited");
                    // The second permit frees up 100 ms after the first was taken; the call waited for it.
                    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(20));
                });
    }

    @Test
    void instancePropertiesOverrideTheAnnotation() {
        runner.withPropertyValues("guard.rate-limit.instances.per-user.rate=1").run(context -> {
            OrderService service = context.getBean(OrderService.class);
            service.submit("alice");
            assertThatThrownBy(() -> service.submit("alice")).isInstanceOf(RateLimitExceededException.class);
        });
    }

    @Test
    void shadowModeForEveryLimitFromTheDefaultsWithAnInstanceBackInForce() {
        runner.withPropertyValues("guard.rate-limit.defaults.shadow=true",
                "guard.rate-limit.instances.narrow.shadow=false").run(context -> {
            OrderService service = context.getBean(OrderService.class);
            for (int i = 0; i < 4; i++) {
                assertThat(service.submit("alice")).as("per-user is in shadow mode").isEqualTo("ok alice");
            }
            assertThat(service.both("x")).isEqualTo("both x");
            assertThatThrownBy(() -> service.both("x"))
                    .isInstanceOfSatisfying(RateLimitExceededException.class,
                            e -> assertThat(e.policyName()).isEqualTo("narrow"));
            assertThat(context.getBean(CountingRateLimiter.class).requests())
                    .extracting(CountingRateLimiter.Request::limit)
                    .containsExactly("per-user", "per-user", "per-user", "per-user", "wide", "narrow", "wide",
                            "narrow");
        });
    }

    @Test
    void aShadowValueThatIsNoBooleanStopsStartUpNamingTheProperty() {
        runner.withPropertyValues("guard.rate-limit.instances.per-user.shadow=maybe").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("maybe");
            assertThat(context.getStartupFailure()).hasStackTraceContaining(
                    "guard.rate-limit.instances.per-user.shadow");
        });
    }
}
