package io.guard.spring.web;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServletServerHttpResponse;

import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;

/**
 * Writes a problem answer straight onto a servlet response, with the application's own message converters (so the
 * JSON is the one a controller returning {@code ProblemDetail} would produce), wherever the refusal surfaced: in a
 * controller or in a servlet filter.
 */
final class ServletProblemWriter {

    private final Supplier<List<HttpMessageConverter<?>>> converters;

    ServletProblemWriter(Supplier<List<HttpMessageConverter<?>>> converters) {
        this.converters = converters;
    }

    @SuppressWarnings("unchecked")
    void write(ResponseEntity<ProblemDetail> answer, HttpServletResponse response) throws IOException {
        response.setStatus(answer.getStatusCode().value());
        HttpHeaders headers = answer.getHeaders();
        headers.forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
        ProblemDetail body = answer.getBody();
        for (MediaType type : List.of(MediaType.APPLICATION_PROBLEM_JSON, MediaType.APPLICATION_JSON)) {
            for (HttpMessageConverter<?> converter : converters.get()) {
                if (converter.canWrite(ProblemDetail.class, type)) {
                    try (ServletServerHttpResponse out = new ServletServerHttpResponse(response)) {
                        ((HttpMessageConverter<ProblemDetail>) converter).write(body, type, out);
                    }
                    return;
                }
            }
        }
        // No JSON converter at all: the status and headers still say what happened.
        response.setContentType(MediaType.TEXT_PLAIN_VALUE);
        response.getWriter().write(String.valueOf(body.getDetail()));
    }
}
