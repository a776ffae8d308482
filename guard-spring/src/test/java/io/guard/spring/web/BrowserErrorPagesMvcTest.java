package io.guard.spring.web;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.ImportAutoConfigs;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Browsers get the application's error page for a refusal, as for its other errors, with Retry-After and the
 * RateLimit fields; API clients keep the problem detail. Runs a real Tomcat: the error page is rendered on the
 * container's error dispatch, which MockMvc does not perform.
 */
class BrowserErrorPagesMvcTest {

    private static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"TomcatServletWebServerAutoConfiguration|ServletWebServerFactoryAutoConfiguration",
            "DispatcherServletAutoConfiguration", "WebMvcAutoConfiguration", "ErrorMvcAutoConfiguration",
            "JacksonAutoConfiguration", "HttpMessageConvertersAutoConfiguration"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import({LoginThrottle.class, LoginFilter.class, PagesController.class})
    static class Application {
    }

    static class LoginThrottle {
        @RateLimit(name = "login-attempts", rate = 1, interval = "60s")
        public void attempt() {
        }
    }

    /** Login throttling in a servlet filter: the refusal never reaches Spring MVC. */
    static class LoginFilter extends OncePerRequestFilter {
        private final LoginThrottle throttle;

        LoginFilter(LoginThrottle throttle) {
            this.throttle = throttle;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            if (request.getRequestURI().equals("/login")) {
                throttle.attempt();
            }
            chain.doFilter(request, response);
        }
    }

    @RestController
    static class PagesController {
        @GetMapping("/login")
        public String login() {
            return "welcome";
        }

        @GetMapping("/owners")
        @RateLimit(name = "owner-search", rate = 1, interval = "60s")
        public String owners() {
            return "owners";
        }

        @GetMapping("/vets")
        @CircuitBreaker(name = "vets")
        public String vets() {
            throw new IllegalStateException("vets down");
        }
    }

    private static void withApplication(Consumer<Client> test, String... properties) {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.SERVLET)
                .properties("server.port=0", "server.address=127.0.0.1", "spring.main.banner-mode=off",
                        "guard.rate-limit.backend=local",
                        // Boot's resolver finds static error pages here: error/429.html, nothing for 503.
                        "spring.web.resources.static-locations=classpath:/html-errors/",
                        "guard.circuit-breaker.instances.vets.minimum-number-of-calls=1",
                        "guard.circuit-breaker.instances.vets.sliding-window-size=1",
                        "guard.circuit-breaker.instances.vets.wait-duration-in-open-state=30s")
                .properties(properties)
                .run()) {
            test.accept(new Client(Integer.parseInt(context.getEnvironment().getProperty("local.server.port"))));
        }
    }

    record Client(int port) {
        HttpResponse<String> get(String path, String accept) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(30)).header("Accept", accept).GET().build();
            try {
                return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static String header(HttpResponse<?> response, String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    @Test
    void aBrowserGetsTheApplicationsErrorPageFor429WithRetryAfterAndTheRateLimitFields() {
        withApplication(client -> {
            assertThat(client.get("/owners", BROWSER).statusCode()).isEqualTo(200);
            HttpResponse<String> refused = client.get("/owners", BROWSER);
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(header(refused, "Content-Type")).startsWith("text/html");
            assertThat(refused.body()).contains("Too many requests - the application's own error page");
            assertThat(header(refused, "Retry-After")).matches("59|60");
            assertThat(header(refused, "RateLimit-Policy")).isEqualTo("\"owner-search\";q=1;w=60");
            assertThat(header(refused, "RateLimit")).matches("\"owner-search\";r=0;t=(59|60)");
        });
    }

    @Test
    void anApiClientStillGetsTheProblemDetail() {
        withApplication(client -> {
            assertThat(client.get("/owners", "application/json").statusCode()).isEqualTo(200);
            HttpResponse<String> refused = client.get("/owners", "application/json");
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(header(refused, "Content-Type")).startsWith("application/problem+json");
            assertThat(refused.body()).contains("\"type\":\"urn:problem-type:guard:rate-limited\"")
                    .contains("\"detail\":\"Rate limit 'owner-search' allows 1 requests per 60s.\"");
            assertThat(header(refused, "Retry-After")).matches("59|60");
            assertThat(header(refused, "RateLimit")).matches("\"owner-search\";r=0;t=(59|60)");
            assertThat(client.get("/owners", "*/*").body()).contains("urn:problem-type:guard:rate-limited");
            assertThat(client.get("/owners", "application/json;q=0.9, text/html;q=0.5").body())
                    .contains("urn:problem-type:guard:rate-limited");
        });
    }

    @Test
    void aRefusalInAServletFilterGetsTheErrorPageToo() {
        withApplication(client -> {
            assertThat(client.get("/login", BROWSER).body()).isEqualTo("welcome");
            HttpResponse<String> refused = client.get("/login", BROWSER);
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.body()).contains("Too many requests - the application's own error page");
            assertThat(header(refused, "Retry-After")).matches("59|60");
            assertThat(header(refused, "RateLimit-Policy")).isEqualTo("\"login-attempts\";q=1;w=60");
        });
    }

    @Test
    void anOpenBreakerWithoutFallbackGivesABrowserTheWhitelabelPageWithTheDetail() {
        withApplication(client -> {
            assertThat(client.get("/vets", BROWSER).statusCode()).isEqualTo(500);
            HttpResponse<String> open = client.get("/vets", BROWSER);
            assertThat(open.statusCode()).isEqualTo(503);
            assertThat(header(open, "Content-Type")).startsWith("text/html");
            assertThat(open.body()).contains("Whitelabel Error Page").contains("Service Unavailable")
                    .contains("is OPEN and admits no calls");
            assertThat(header(open, "Retry-After")).matches("2[0-9]|30");
        }, "server.error.include-message=always", "spring.web.error.include-message=always");
    }
}
