package io.guard.spring.web;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import java.io.IOException;

/**
 * Hands a refusal to the servlet container's error handling, for browsers: the container then renders the
 * application's error page for the status ({@code error/429.html}, {@code error/4xx.html}, Spring Boot's whitelabel
 * page) exactly as for the application's other errors. Header fields set before {@code sendError} stay on the
 * answer, so {@code Retry-After} and the RateLimit fields reach the browser too.
 */
final class ServletErrorPage {

    private ServletErrorPage() {
    }

    static void send(ResponseEntity<ProblemDetail> answer, HttpServletResponse response) throws IOException {
        answer.getHeaders().forEach((name, values) -> {
            response.setHeader(name, values.get(0));
            values.stream().skip(1).forEach(value -> response.addHeader(name, value));
        });
        ProblemDetail problem = answer.getBody();
        response.sendError(answer.getStatusCode().value(), problem != null ? problem.getDetail() : null);
    }
}
