package io.guard.spring.observation;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.micrometer.observation.Observation;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import reactor.core.publisher.Mono;

import java.net.ConnectException;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static io.guard.spring.observation.RecordingHandler.low;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a decision's observation says beyond allowed or refused (issue 35 item 3): that the refusing limit's fallback
 * answered, and that the backend could not decide and which {@code on-backend-failure} policy answered instead, so
 * that a limit not being enforced shows in traces and in the {@code guard.ratelimit.decision} timer.
 */
class DecisionObservationTagsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withUserConfiguration(Services.class);

    @Configuration(proxyBeanMethods = false)
    @Import(RecordingHandler.Registered.class)
    static class Services {
        @Bean
        Orders orders() {
            return new Orders();
        }
    }

    /** A backend that is down, behind Guard's failover: every limit's failure policy answers. */
    @Configuration(proxyBeanMethods = false)
    static class BackendDown {
        @Bean(destroyMethod = "close")
        RateLimiter failingOverRateLimiter() {
            RateLimiter down = new RateLimiter() {
                @Override
                public CompletionStage<BackendOutcome> decide(RateLimitPolicy policy, String key, long permits) {
                    return CompletableFuture.failedFuture(new RateLimiterBackendException("redis is down",
                            new ConnectException("Connection refused")));
                }

                @Override
                public String backendName() {
                    return "down";
                }

                @Override
                public void close() {
                }
            };
            return new FailoverRateLimiter(down, new LocalRateLimiter(Clock.systemUTC()),
                    CircuitBreakerRegistry.ofDefaults().circuitBreaker("backend",
                            FailoverRateLimiter.recommendedBreakerConfig()), Clock.systemUTC());
        }
    }

    static class Orders {
        @RateLimit(name = "submit", key = "#user", rate = 1, interval = "60s", fallbackMethod = "later")
        public String submit(String user) {
            return "ok " + user;
        }

        @SuppressWarnings("unused")
        String later(String user, RateLimitExceededException refusal) {
            return "later " + user;
        }

        @RateLimit(name = "plain", key = "#user", rate = 1, interval = "60s")
        public String plain(String user) {
            return "ok " + user;
        }

        @RateLimit(name = "reactive", key = "#user", rate = 1, interval = "60s", fallbackMethod = "reactiveLater")
        public Mono<String> reactive(String user) {
            return Mono.just("ok " + user);
        }

        @SuppressWarnings("unused")
        Mono<String> reactiveLater(String user, RateLimitExceededException refusal) {
            return Mono.just("later " + user);
        }

        @RateLimit(name = "open", rate = 100, interval = "60s")
        public String open() {
            return "open";
        }

        @RateLimit(name = "local", rate = 100, interval = "60s")
        public String local() {
            return "local";
        }

        @RateLimit(name = "closed", rate = 100, interval = "60s")
        public String closed() {
            return "closed";
        }
    }

    @Test
    void aRefusalTheLimitsFallbackAnswersIsTaggedSoAndOneWithoutAFallbackIsNot() {
        runner.withPropertyValues("guard.rate-limit.backend=local").run(context -> {
            Orders orders = context.getBean(Orders.class);
            RecordingHandler recorded = context.getBean(RecordingHandler.class);

            orders.submit("ann");
            assertThat(orders.submit("ann")).isEqualTo("later ann");
            orders.plain("bob");
            assertThatThrownBy(() -> orders.plain("bob")).isInstanceOf(RateLimitExceededException.class);
            orders.reactive("cy").block();
            assertThat(orders.reactive("cy").block()).isEqualTo("later cy");

            assertThat(recorded.named(DefaultRateLimitObservationConvention.NAME))
                    .extracting(c -> low(c, "guard.limit") + " " + low(c, "guard.outcome") + " "
                            + low(c, "guard.fallback"))
                    .containsExactly("submit allowed false", "submit refused true", "plain allowed false",
                            "plain refused false", "reactive allowed false", "reactive refused true");
            assertThat(recorded.named(DefaultRateLimitObservationConvention.NAME))
                    .allSatisfy(c -> assertThat(low(c, "guard.failure-policy") + " " + low(c, "guard.backend.failure"))
                            .isEqualTo("none none"));
        });
    }

    @Test
    void anAnswerOfTheFailurePolicyIsObservedAsWhatItIs() {
        runner.withUserConfiguration(BackendDown.class).withPropertyValues(
                        "guard.rate-limit.instances.open.on-backend-failure=FAIL_OPEN",
                        "guard.rate-limit.instances.local.on-backend-failure=LOCAL",
                        "guard.rate-limit.instances.closed.on-backend-failure=FAIL_CLOSED")
                .run(context -> {
                    Orders orders = context.getBean(Orders.class);
                    RecordingHandler recorded = context.getBean(RecordingHandler.class);

                    assertThat(orders.open()).isEqualTo("open");
                    assertThat(orders.local()).isEqualTo("local");
                    assertThatThrownBy(orders::closed).isInstanceOf(RateLimiterBackendException.class);

                    assertThat(recorded.named(DefaultRateLimitObservationConvention.NAME))
                            .extracting(c -> low(c, "guard.limit") + " " + low(c, "guard.outcome") + " "
                                    + low(c, "guard.failure-policy") + " " + low(c, "guard.backend.failure"))
                            .containsExactly("open allowed fail-open connection", "local allowed local connection",
                                    "closed error fail-closed connection");
                    Observation.Context open = recorded.named(DefaultRateLimitObservationConvention.NAME).get(0);
                    assertThat(((RateLimitObservationContext) open).getFailurePolicy()).isNotNull();
                });
    }
}
