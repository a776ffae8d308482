package io.guard.spring.web;

import io.guard.bulkhead.Bulkhead;
import io.guard.bulkhead.BulkheadRegistry;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.ImportAutoConfigs;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code guard.server-limit} on a real server (Tomcat for Spring MVC, with asynchronous handlers; Netty for WebFlux):
 * responses slower than the AIMD timeout bring the server-wide limit down, and a request beyond it is answered at once with Guard's 503 problem
 * detail and {@code Retry-After}, while an excluded path still answers.
 */
class ServerLimitIT {

    enum Server {
        MVC(MvcApp.class, WebApplicationType.SERVLET), WEBFLUX(WebFluxApp.class, WebApplicationType.REACTIVE);

        final Class<?> app;
        final WebApplicationType type;

        Server(Class<?> app, WebApplicationType type) {
            this.app = app;
            this.type = type;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"TomcatServletWebServerAutoConfiguration|ServletWebServerFactoryAutoConfiguration",
            "JacksonAutoConfiguration", "HttpMessageConvertersAutoConfiguration",
            "DispatcherServletAutoConfiguration", "WebMvcAutoConfiguration"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(MvcController.class)
    static class MvcApp {
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"NettyReactiveWebServerAutoConfiguration|ReactiveWebServerFactoryAutoConfiguration",
            "JacksonAutoConfiguration", "CodecsAutoConfiguration", "WebFluxAutoConfiguration",
            "HttpHandlerAutoConfiguration"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(WebFluxController.class)
    static class WebFluxApp {
    }

    @RestController
    static class MvcController {
        /** Asynchronous: the permit is held until the request completes, not until the handler returns. */
        @GetMapping("/work")
        public CompletableFuture<String> work(@RequestParam long millis) {
            return CompletableFuture.supplyAsync(() -> "ok",
                    CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS));
        }

        @GetMapping("/health")
        public String health() {
            return "up";
        }
    }

    @RestController
    static class WebFluxController {
        @GetMapping("/work")
        public Mono<String> work(@RequestParam long millis) {
            return Mono.delay(Duration.ofMillis(millis)).thenReturn("ok");
        }

        @GetMapping("/health")
        public Mono<String> health() {
            return Mono.just("up");
        }
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void slowResponsesLowerTheLimitAndARequestBeyondItIsRefusedAtOnceWithRetryAfter(Server server) throws Exception {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(server.app).web(server.type)
                .properties("server.address=127.0.0.1", "server.port=0", "guard.rate-limit.backend=local",
                        "guard.server-limit.enabled=true",
                        "guard.server-limit.adaptive-limit.algorithm=aimd",
                        "guard.server-limit.adaptive-limit.initial-limit=4",
                        "guard.server-limit.adaptive-limit.min-limit=1",
                        "guard.server-limit.adaptive-limit.backoff-ratio=0.5",
                        "guard.server-limit.adaptive-limit.timeout=200ms",
                        "guard.server-limit.adaptive-limit.retry-after=2s",
                        "guard.server-limit.excluded-paths=/health")
                .run()) {
            int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
            WebTestClient client = WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port)
                    .responseTimeout(Duration.ofSeconds(30)).build();
            Bulkhead limit = context.getBean(BulkheadRegistry.class).find("server").orElseThrow();
            assertThat(limit.maxConcurrentCalls()).isEqualTo(4);
            assertThat(limit.algorithm()).isEqualTo("aimd");

            for (int i = 0; i < 3; i++) { // each slower than the 200 ms timeout: 4 -> 2 -> 1 -> 1
                assertThat(Exchange.get(client, "/work?millis=400").status()).isEqualTo(200);
            }
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(limit.maxConcurrentCalls()).as("the limit after slow responses").isEqualTo(1);
                assertThat(limit.concurrentCalls()).isZero();
            });

            CompletableFuture<Exchange> running = CompletableFuture.supplyAsync(
                    () -> Exchange.get(client, "/work?millis=3000"));
            await().atMost(Duration.ofSeconds(10)).until(() -> limit.concurrentCalls() == 1);
            Exchange refused = Exchange.get(client, "/work?millis=0");
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.header("Retry-After")).isEqualTo("2");
            assertThat(refused.isProblem()).isTrue();
            assertThat(refused.json().get("type").asText()).isEqualTo("urn:problem-type:guard:bulkhead-full");
            assertThat(refused.json().get("bulkhead").asText()).isEqualTo("server");
            assertThat(Exchange.get(client, "/health").status()).as("an excluded path").isEqualTo(200);
            assertThat(running.get().status()).isEqualTo(200);
            assertThat(limit.refusedCalls()).isEqualTo(1);
        }
    }
}
