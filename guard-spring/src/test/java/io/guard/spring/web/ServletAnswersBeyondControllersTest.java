package io.guard.spring.web;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.AutoConfigs;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Guard's answers do not depend on the refusal passing through a controller (a servlet filter gets them too), and an
 * application's own handler for a Guard exception wins over Guard's default answer.
 */
class ServletAnswersBeyondControllersTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                    AutoConfigs.type("JacksonAutoConfiguration"),
                    AutoConfigs.type("HttpMessageConvertersAutoConfiguration"),
                    AutoConfigs.type("DispatcherServletAutoConfiguration"),
                    AutoConfigs.type("WebMvcAutoConfiguration"), GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local")
            .withBean(LoginThrottle.class)
            .withBean(LoginFilter.class)
            .withBean(LoginController.class);

    static class LoginThrottle {
        @RateLimit(name = "login-attempts", rate = 1, interval = "60s")
        public void attempt() {
        }
    }

    /** Login throttling in a servlet filter, the classic case. */
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
    static class LoginController {
        @PostMapping("/login")
        public String login() {
            return "welcome";
        }

        @PostMapping("/search")
        @RateLimit(name = "search", rate = 1, interval = "60s")
        public String search() {
            return "results";
        }
    }

    @RestControllerAdvice
    static class OwnAnswers {
        @ExceptionHandler(RateLimitExceededException.class)
        ResponseEntity<String> slowDown(RateLimitExceededException e) {
            return ResponseEntity.status(HttpStatus.I_AM_A_TEAPOT).body("slow down: " + e.policyName());
        }

        @ExceptionHandler(Exception.class)
        ResponseEntity<String> anything(Exception e) {
            return ResponseEntity.internalServerError().body("catch-all");
        }
    }

    @Test
    void aRefusalInAServletFilterAnswers429() {
        runner.run(context -> {
            MockMvc mvc = FilteredMockMvc.of(context);
            mvc.perform(post("/login")).andExpect(status().isOk()).andExpect(content().string("welcome"));
            mvc.perform(post("/login"))
                    .andExpect(status().isTooManyRequests())
                    .andExpect(header().exists("Retry-After"))
                    .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                    .andExpect(jsonPath("$.type").value("urn:problem-type:guard:rate-limited"))
                    .andExpect(jsonPath("$.violated-policies[0]").value("login-attempts"))
                    .andExpect(jsonPath("$.instance").value("/login"));
        });
    }

    @Test
    void theApplicationsOwnHandlerForAGuardExceptionWins() {
        runner.withBean(OwnAnswers.class).run(context -> {
            MockMvc mvc = FilteredMockMvc.of(context);
            mvc.perform(post("/search")).andExpect(status().isOk());
            mvc.perform(post("/search"))
                    .andExpect(status().isIAmATeapot())
                    .andExpect(content().string("slow down: search"));
        });
    }
}
