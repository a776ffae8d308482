package io.guard.classpath;

import io.guard.spring.annotation.RateLimit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import reactor.core.publisher.Mono;

/** A WebFlux application without spring-webmvc or the servlet API (issue 24: its errors went unanswered). */
class WebFluxOnlyIT extends OneWebStackAnswers {

    @Override
    Class<?> application() {
        return WebFluxApplication.class;
    }

    @Override
    String classOfTheOtherStack() {
        return "org.springframework.web.servlet.HandlerExceptionResolver";
    }

    @Test
    void noServletApiEither() {
        assertThatThrownBy(() -> Class.forName("jakarta.servlet.http.HttpServletRequest"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @SpringBootApplication
    @RestController
    static class WebFluxApplication {

        @GetMapping("/limited")
        @RateLimit(name = "limited", rate = 1, interval = "60s")
        Mono<String> limited() {
            return Mono.just("ok");
        }

        @GetMapping("/failing")
        Mono<String> failing() {
            return Mono.error(new IllegalStateException("the application failed"));
        }
    }
}
