package io.guard.spring.observation;

import io.guard.breaker.CallNotPermittedException;
import io.guard.ratelimit.RateLimiter;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.CountingRateLimiter;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import static io.guard.spring.observation.RecordingHandler.high;
import static io.guard.spring.observation.RecordingHandler.low;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GuardObservationsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withUserConfiguration(Services.class)
            .withPropertyValues(
                    "guard.rate-limit.instances.search-trial.shadow=true",
                    "guard.circuit-breaker.instances.stock.sliding-window-size=2",
                    "guard.circuit-breaker.instances.stock.minimum-number-of-calls=2",
                    "guard.circuit-breaker.instances.stock.failure-rate-threshold=50",
                    "guard.circuit-breaker.instances.stock.wait-duration-in-open-state=30s");

    @Configuration(proxyBeanMethods = false)
    @Import(RecordingHandler.Registered.class)
    static class Services {
        @Bean
        RateLimiter countingRateLimiter() {
            return new CountingRateLimiter();
        }

        @Bean
        Shop shop() {
            return new Shop();
        }
    }

    static class Shop {
        private volatile boolean failing;

        public void failing(boolean failing) {
            this.failing = failing;
        }

        @RateLimit(name = "order-submit", key = "#user", rate = 1, interval = "60s")
        public String submit(String user) {
            return "ok " + user;
        }

        @RateLimit(name = "search", rate = 5)
        @RateLimit(name = "search-trial", rate = 1)
        public String search() {
            return "found";
        }

        @CircuitBreaker(name = "stock", fallbackMethod = "stockFallback")
        public String stock() throws IOException {
            if (failing) {
                throw new IOException("down");
            }
            return "in stock";
        }

        @SuppressWarnings("unused")
        private String stockFallback(IOException e) {
            return "io fallback";
        }

        @SuppressWarnings("unused")
        private String stockFallback(CallNotPermittedException e) {
            return "open fallback";
        }

        @RateLimit(name = "reactive", key = "#user", rate = 1, interval = "60s")
        public Mono<String> reactiveSubmit(String user) {
            return Mono.just("ok " + user);
        }

        /** Answers the observation its own publisher sees in the Reactor context. */
        @CircuitBreaker(name = "reactive-stock")
        public Mono<Object> reactiveStock() {
            return Mono.deferContextual(context -> Mono.just(context.<Object>getOrDefault(ObservationThreadLocalAccessor.KEY,
                    "none")));
        }

        @CircuitBreaker(name = "reactive-list")
        public Flux<String> reactiveList() {
            return Flux.just("a", "b");
        }

        @CircuitBreaker(name = "stage", fallbackMethod = "stageFallback")
        public CompletableFuture<String> stage(CompletableFuture<String> answer) {
            return answer;
        }

        @SuppressWarnings("unused")
        private CompletableFuture<String> stageFallback(CompletableFuture<String> answer, IOException e) {
            return CompletableFuture.completedFuture("stage fallback");
        }
    }

    @Test
    void eachDecisionIsAnObservationNamingTheLimitAndTheOutcomeButNeverTheKey() {
        runner.run(context -> {
            Shop shop = context.getBean(Shop.class);
            RecordingHandler recorded = context.getBean(RecordingHandler.class);
            shop.submit("alice");
            assertThatThrownBy(() -> shop.submit("alice")).isInstanceOf(RateLimitExceededException.class);

            List<Observation.Context> decisions = recorded.named("guard.ratelimit.decision");
            assertThat(decisions).hasSize(2);
            Observation.Context allowed = decisions.get(0);
            assertThat(allowed).isInstanceOf(RateLimitObservationContext.class);
            assertThat(low(allowed, "guard.limit")).isEqualTo("order-submit");
            assertThat(low(allowed, "guard.outcome")).isEqualTo("allowed");
            assertThat(low(allowed, "guard.method")).isEqualTo("Shop.submit");
            assertThat(high(allowed, "guard.retry-after")).isNull();
            assertThat(allowed.getContextualName()).isEqualTo("ratelimit order-submit");

            Observation.Context refused = decisions.get(1);
            assertThat(low(refused, "guard.outcome")).isEqualTo("refused");
            assertThat(high(refused, "guard.retry-after")).isEqualTo("60s");
            assertThat(refused.getError()).as("a refusal is the limit's job, not an error").isNull();
            for (Observation.Context decision : decisions) {
                assertThat(decision.getAllKeyValues()).extracting(KeyValue::getValue).doesNotContain("alice");
            }
        });
    }

    @Test
    void aShadowLimitsWouldBeRefusalIsItsOwnOutcome() {
        runner.run(context -> {
            Shop shop = context.getBean(Shop.class);
            RecordingHandler recorded = context.getBean(RecordingHandler.class);
            assertThat(shop.search()).isEqualTo("found");
            assertThat(shop.search()).isEqualTo("found");

            List<Observation.Context> decisions = recorded.named("guard.ratelimit.decision");
            assertThat(decisions).extracting(decision -> low(decision, "guard.outcome"))
                    .containsExactly("allowed", "shadow-refused");
            assertThat(low(decisions.get(0), "guard.limit")).isEqualTo("search");
            assertThat(low(decisions.get(1), "guard.limit")).isEqualTo("search-trial");
            assertThat(high(decisions.get(1), "guard.retry-after")).isEqualTo("1s");
        });
    }

    @Test
    void aBreakerCallSaysWhichStateSentItToTheFallback() {
        runner.run(context -> {
            Shop shop = context.getBean(Shop.class);
            RecordingHandler recorded = context.getBean(RecordingHandler.class);
            assertThat(shop.stock()).isEqualTo("in stock");
            shop.failing(true);
            assertThat(shop.stock()).isEqualTo("io fallback"); // 1 of 2 failed: 50 %, the breaker opens
            assertThat(shop.stock()).isEqualTo("open fallback");

            List<Observation.Context> calls = recorded.named("guard.circuitbreaker.call");
            assertThat(calls).extracting(call -> low(call, "guard.breaker")).containsOnly("stock");
            assertThat(calls).extracting(call -> low(call, "guard.state"))
                    .containsExactly("CLOSED", "CLOSED", "OPEN");
            assertThat(calls).extracting(call -> low(call, "guard.outcome"))
                    .containsExactly("success", "failure", "not-permitted");
            assertThat(calls).extracting(call -> low(call, "guard.fallback"))
                    .containsExactly("false", "true", "true");
            assertThat(high(calls.get(2), "guard.retry-after")).as("the time left in OPEN")
                    .matches("(29\\d{3}ms|30s)");
            assertThat(calls.get(2).getContextualName()).isEqualTo("circuitbreaker stock");
        });
    }

    @Test
    void theMethodRunsInsideTheBreakerObservation() {
        runner.run(context -> {
            Shop shop = context.getBean(Shop.class);
            ObservationRegistry registry = context.getBean(ObservationRegistry.class);
            AtomicReference<Observation> seen = new AtomicReference<>();
            Observation outer = Observation.start("outer", registry);
            try (Observation.Scope scope = outer.openScope()) {
                shop.stock();
                seen.set(registry.getCurrentObservation());
            } finally {
                outer.stop();
            }
            RecordingHandler recorded = context.getBean(RecordingHandler.class);
            Observation.Context call = recorded.named("guard.circuitbreaker.call").get(0);
            assertThat(call.getParentObservation()).isSameAs(outer);
            assertThat(seen.get()).as("the scope is closed again").isSameAs(outer);
        });
    }

    @Test
    void reactiveDecisionsAreChildrenOfTheSubscriptionsObservation() {
        runner.run(context -> {
            Shop shop = context.getBean(Shop.class);
            ObservationRegistry registry = context.getBean(ObservationRegistry.class);
            RecordingHandler recorded = context.getBean(RecordingHandler.class);
            Observation request = Observation.start("http.server.requests", registry);
            Mono<String> call = shop.reactiveSubmit("bob")
                    .contextWrite(Context.of(ObservationThreadLocalAccessor.KEY, request));

            assertThat(recorded.named("guard.ratelimit.decision")).as("nothing before subscription").isEmpty();
            assertThat(call.block()).isEqualTo("ok bob");
            assertThatThrownBy(call::block).isInstanceOf(RateLimitExceededException.class);
            request.stop();

            List<Observation.Context> decisions = recorded.named("guard.ratelimit.decision");
            assertThat(decisions).extracting(decision -> low(decision, "guard.outcome"))
                    .containsExactly("allowed", "refused");
            assertThat(decisions).allSatisfy(decision -> assertThat(decision.getParentObservation()).isSameAs(request));
        });
    }

    @Test
    void aReactiveMethodSeesTheBreakerObservationAsItsParent() {
        runner.run(context -> {
            Shop shop = context.getBean(Shop.class);
            ObservationRegistry registry = context.getBean(ObservationRegistry.class);
            RecordingHandler recorded = context.getBean(RecordingHandler.class);
            Observation request = Observation.start("http.server.requests", registry);

            Object seen = shop.reactiveStock()
                    .contextWrite(Context.of(ObservationThreadLocalAccessor.KEY, request)).block();
            assertThat(shop.reactiveList().collectList().block()).containsExactly("a", "b");
            assertThat(shop.reactiveList().next().block()).isEqualTo("a");
            request.stop();

            Observation.Context call = recorded.named("guard.circuitbreaker.call").get(0);
            assertThat(call.getParentObservation()).isSameAs(request);
            assertThat(seen).isInstanceOfSatisfying(Observation.class,
                    observation -> assertThat(observation.getContext()).isSameAs(call));
            assertThat(recorded.named("guard.circuitbreaker.call")).extracting(c -> low(c, "guard.outcome"))
                    .containsExactly("success", "success", "success");
        });
    }

    @Test
    void aStageIsObservedUntilItCompletes() {
        runner.run(context -> {
            Shop shop = context.getBean(Shop.class);
            RecordingHandler recorded = context.getBean(RecordingHandler.class);
            CompletableFuture<String> answer = new CompletableFuture<>();
            CompletableFuture<String> result = shop.stage(answer);
            assertThat(recorded.named("guard.circuitbreaker.call")).isEmpty();

            answer.completeExceptionally(new IOException("late"));
            assertThat(result.join()).isEqualTo("stage fallback");
            Observation.Context call = recorded.named("guard.circuitbreaker.call").get(0);
            assertThat(low(call, "guard.outcome")).isEqualTo("failure");
            assertThat(low(call, "guard.fallback")).isEqualTo("true");
        });
    }

    @Test
    void aUserConventionReplacesTheDefault() {
        runner.withBean(RateLimitObservationConvention.class, () -> new DefaultRateLimitObservationConvention() {
            @Override
            public String getName() {
                return "shop.limits";
            }

            @Override
            public KeyValues getLowCardinalityKeyValues(RateLimitObservationContext context) {
                return super.getLowCardinalityKeyValues(context).and("team", "checkout");
            }
        }).run(context -> {
            context.getBean(Shop.class).submit("carol");
            Observation.Context decision = context.getBean(RecordingHandler.class).named("shop.limits").get(0);
            assertThat(low(decision, "team")).isEqualTo("checkout");
            assertThat(low(decision, "guard.limit")).isEqualTo("order-submit");
        });
    }

    @Test
    void switchedOffNothingIsObserved() {
        runner.withPropertyValues("guard.observations.enabled=false").run(context -> {
            Shop shop = context.getBean(Shop.class);
            shop.submit("dave");
            shop.stock();
            assertThat(context).doesNotHaveBean(GuardObservations.class);
            assertThat(context.getBean(RecordingHandler.class).stopped()).isEmpty();
        });
    }

    @Test
    void withoutAnObservationRegistryThereIsNothingToObserve() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
                .withBean(RateLimiter.class, CountingRateLimiter::new)
                .withBean(Shop.class, Shop::new)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(GuardObservations.class);
                    assertThat(context.getBean(Shop.class).submit("erin")).isEqualTo("ok erin");
                });
    }
}
