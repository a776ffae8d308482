package io.guard.classpath;

import io.guard.spring.annotation.RateLimit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A Spring MVC application without Reactor or WebFlux. */
class ServletOnlyIT extends OneWebStackAnswers {

    @Override
    Class<?> application() {
        return ServletApplication.class;
    }

    @Override
    String classOfTheOtherStack() {
        return "reactor.core.publisher.Mono";
    }

    @Test
    void noWebFluxEither() {
        assertThatThrownBy(() -> Class.forName("org.springframework.web.reactive.DispatcherHandler"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @SpringBootApplication
    @RestController
    static class ServletApplication {

        @GetMapping("/limited")
        @RateLimit(name = "limited", rate = 1, interval = "60s")
        String limited() {
            return "ok";
        }

        @GetMapping("/failing")
        String failing() {
            throw new IllegalStateException("the application failed");
        }
    }
}
