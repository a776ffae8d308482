package io.guard.spring.web;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.http.codec.CodecsAutoConfiguration;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.autoconfigure.web.reactive.HttpHandlerAutoConfiguration;
import org.springframework.boot.autoconfigure.web.reactive.WebFluxAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.http.MediaType;
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
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                    CodecsAutoConfiguration.class, WebFluxAutoConfiguration.class,
                    HttpHandlerAutoConfiguration.class, GuardAutoConfiguration.class))
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
            client.get().uri("/mono?user=alice").exchange()
                    .expectStatus().isOk()
                    .expectHeader().valueEquals("RateLimit-Policy", "\"mono\";q=1;w=60")
                    .expectHeader().valueMatches("RateLimit", "\"mono\";r=0;t=(59|60)")
                    .expectBody(String.class).isEqualTo("mono alice");
            client.get().uri("/mono?user=alice").exchange()
                    .expectStatus().isEqualTo(429)
                    .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectHeader().valueMatches("Retry-After", "59|60")
                    .expectHeader().valueEquals("RateLimit-Policy", "\"mono\";q=1;w=60")
                    .expectBody()
                    .jsonPath("$.status").isEqualTo(429)
                    .jsonPath("$.instance").isEqualTo("/mono")
                    .jsonPath("$.violated-policies[0]").isEqualTo("mono");
            client.get().uri("/mono?user=bob").exchange().expectStatus().isOk();
        });
    }

    @Test
    void fluxHandlersAreLimitedPerSubscription() {
        runner.run(context -> {
            WebTestClient client = client(context);
            client.get().uri("/flux").exchange().expectStatus().isOk()
                    .expectHeader().valueMatches("RateLimit", "\"flux\";r=1;t=\\d+");
            client.get().uri("/flux").exchange().expectStatus().isOk();
            client.get().uri("/flux").exchange().expectStatus().isEqualTo(429);
        });
    }

    @Test
    void monoFailuresGoToTheFallbackAndCount() {
        runner.run(context -> {
            WebTestClient client = client(context);
            client.get().uri("/remote?fail=false").exchange().expectBody(String.class).isEqualTo("live");
            client.get().uri("/remote?fail=true").exchange().expectBody(String.class)
                    .isEqualTo("cached after remote down");
            var snapshot = context.getBean(CircuitBreakerRegistry.class).find("remote").orElseThrow().snapshot();
            assertThat(snapshot.calls()).isEqualTo(2);
            assertThat(snapshot.failedCalls()).isEqualTo(1);
        });
    }

    @Test
    void anOpenBreakerWithoutFallbackIsA503() {
        runner.run(context -> {
            WebTestClient client = client(context);
            client.get().uri("/open").exchange().expectStatus().is5xxServerError();
            client.get().uri("/open").exchange().expectStatus().is5xxServerError();
            client.get().uri("/open").exchange()
                    .expectStatus().isEqualTo(503)
                    .expectHeader().valueMatches("Retry-After", "19|20")
                    .expectBody().jsonPath("$.circuit-breaker").isEqualTo("bare");
        });
    }
}
