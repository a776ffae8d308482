package io.guard.spring.web;

import io.guard.spring.test.AutoConfigs;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/** The WebFlux answers on the in-process backend; {@code GuardWebFluxRedisIT} repeats the main ones on Redis. */
class GuardWebFluxAnswersTest {

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, AutoConfigs.type("JacksonAutoConfiguration"),
                    AutoConfigs.type("CodecsAutoConfiguration"), AutoConfigs.type("WebFluxAutoConfiguration"),
                    AutoConfigs.type("HttpHandlerAutoConfiguration"), GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local",
                    "guard.circuit-breaker.defaults.minimum-number-of-calls=2",
                    "guard.circuit-breaker.defaults.sliding-window-size=2",
                    "guard.circuit-breaker.defaults.wait-duration-in-open-state=20s")
            .withBean(ReactiveController.class);

    @RestController
    static class ReactiveController {
        @GetMapping("/mono")
        @RateLimit(name = "mono", key = "#user", rate = 1, interval = "60s")
        public Mono<String> mono(@RequestParam String user) {
            return Mono.just("mono " + user);
        }

        @GetMapping("/flux")
        @RateLimit(name = "flux", rate = 2, interval = "10s")
        public Flux<String> flux() {
            return Flux.just("a", "b");
        }

        @GetMapping("/remote")
        @CircuitBreaker(name = "remote", fallbackMethod = "cached")
        public Mono<String> remote(@RequestParam boolean fail) {
            return fail ? Mono.error(new IOException("remote down")) : Mono.just("live");
        }

        @SuppressWarnings("unused")
        private Mono<String> cached(boolean fail, IOException e) {
            return Mono.just("cached after " + e.getMessage());
        }

        @GetMapping("/open")
        @CircuitBreaker(name = "bare")
        public Mono<String> bare() {
            return Mono.error(new IllegalStateException("down"));
        }
    }

    private static WebTestClient client(ApplicationContext context) {
        return WebTestClient.bindToApplicationContext(context).build();
    }

    @Test
    void monoHandlersGetTheFieldsAndA429WhenRefused() {
        runner.run(context -> {
            WebTestClient client = client(context);
            Exchange first = Exchange.get(client, "/mono?user=alice");
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.header("RateLimit-Policy")).isEqualTo("\"mono\";q=1;w=60");
            assertThat(first.header("RateLimit")).matches("\"mono\";r=0;t=(59|60)");
            assertThat(first.body()).isEqualTo("mono alice");
            Exchange refused = Exchange.get(client, "/mono?user=alice");
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.isProblem()).isTrue();
            assertThat(refused.header("Retry-After")).matches("59|60");
            assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"mono\";q=1;w=60");
            assertThat(refused.json().path("status").asInt()).isEqualTo(429);
            assertThat(refused.json().path("instance").asText()).isEqualTo("/mono");
            assertThat(refused.json().path("violated-policies").path(0).asText()).isEqualTo("mono");
            assertThat(Exchange.get(client, "/mono?user=bob").status()).isEqualTo(200);
        });
    }

    @Test
    void fluxHandlersAreLimitedPerSubscription() {
        runner.run(context -> {
            WebTestClient client = client(context);
            Exchange first = Exchange.get(client, "/flux");
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.header("RateLimit")).matches("\"flux\";r=1;t=\\d+");
            assertThat(Exchange.get(client, "/flux").status()).isEqualTo(200);
            assertThat(Exchange.get(client, "/flux").status()).isEqualTo(429);
        });
    }

    @Test
    void monoFailuresGoToTheFallbackAndCount() {
        runner.run(context -> {
            WebTestClient client = client(context);
            assertThat(Exchange.get(client, "/remote?fail=false").body()).isEqualTo("live");
            assertThat(Exchange.get(client, "/remote?fail=true").body()).isEqualTo("cached after remote down");
            var snapshot = context.getBean(CircuitBreakerRegistry.class).find("remote").orElseThrow().snapshot();
            assertThat(snapshot.calls()).isEqualTo(2);
            assertThat(snapshot.failedCalls()).isEqualTo(1);
        });
    }

    @Test
    void anOpenBreakerWithoutFallbackIsA503() {
        runner.run(context -> {
            WebTestClient client = client(context);
            assertThat(Exchange.get(client, "/open").status()).isBetween(500, 599);
            assertThat(Exchange.get(client, "/open").status()).isBetween(500, 599);
            Exchange open = Exchange.get(client, "/open");
            assertThat(open.status()).isEqualTo(503);
            assertThat(open.header("Retry-After")).matches("19|20");
            assertThat(open.json().path("circuit-breaker").asText()).isEqualTo("bare");
        });
    }
}
