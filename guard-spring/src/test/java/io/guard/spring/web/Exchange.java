package io.guard.spring.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One WebFlux exchange, read into plain values for AssertJ. The tests do not chain {@code WebTestClient}'s
 * {@code expectStatus()}/{@code expectHeader()} assertions: Spring Framework 7 changed their return types, so a
 * test compiled against one Framework line would fail with {@code NoSuchMethodError} on the other, and these tests
 * run on both.
 */
record Exchange(int status, HttpHeaders headers, String body) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Exchange get(WebTestClient client, String uri) {
        return of(client.get().uri(uri));
    }

    /** Sends a request built by the caller (any method, header fields). */
    static Exchange of(WebTestClient.RequestHeadersSpec<?> request) {
        EntityExchangeResult<String> result = request.exchange().expectBody(String.class).returnResult();
        return new Exchange(result.getStatus().value(), result.getResponseHeaders(),
                result.getResponseBody() == null ? "" : result.getResponseBody());
    }

    /** A GET with the given Accept header. */
    static Exchange get(WebTestClient client, String uri, String accept) {
        EntityExchangeResult<String> result = client.get().uri(uri).header(HttpHeaders.ACCEPT, accept).exchange()
                .expectBody(String.class).returnResult();
        return new Exchange(result.getStatus().value(), result.getResponseHeaders(),
                result.getResponseBody() == null ? "" : result.getResponseBody());
    }

    String header(String name) {
        return headers.getFirst(name);
    }

    boolean isProblem() {
        MediaType type = headers.getContentType();
        return type != null && type.isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
    }

    JsonNode json() {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
    }
}
