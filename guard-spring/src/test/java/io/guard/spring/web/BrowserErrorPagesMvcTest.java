package io.guard.spring.web;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.ImportAutoConfigs;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
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
 * {@link BrowserErrorPagesContract} on Spring MVC. Runs a real Tomcat: the error page is rendered on the container's
 * error dispatch, which MockMvc does not perform.
 */
class BrowserErrorPagesMvcTest extends BrowserErrorPagesContract {

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

    @Override
    void withApplication(Consumer<Pages> test, String... properties) {
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

    /** The method's own exception, answered by Spring Boot's error handling. */
    @Override
    void assertFailureBeforeTheBreakerOpens(Exchange failure) {
        assertThat(failure.status()).isEqualTo(500);
    }

    /** Real HTTP to the real Tomcat, read into an {@link Exchange}. */
    record Client(int port) implements Pages {
        @Override
        public Exchange get(String path, String accept) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(30)).header("Accept", accept).GET().build();
            try {
                HttpResponse<String> response = HttpClient.newHttpClient().send(request,
                        HttpResponse.BodyHandlers.ofString());
                HttpHeaders headers = new HttpHeaders();
                response.headers().map().forEach(headers::addAll);
                return new Exchange(response.statusCode(), headers, response.body());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
