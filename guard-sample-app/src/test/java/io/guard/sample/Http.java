package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small blocking HTTP client for the sample's integration tests: real requests, JSON answers. */
final class Http {

    /** Generous: a busy CI machine can take seconds for the first call of an endpoint (class loading, JIT). */
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final ObjectMapper json = new ObjectMapper();
    private final String base;

    Http(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    Answer get(String path) {
        return send(request(path).GET().build());
    }

    /** A GET asking for another media type than JSON, e.g. Prometheus' text format. */
    Answer get(String path, String accept) {
        return send(request(path).setHeader("Accept", accept).GET().build());
    }

    Answer post(String path) {
        return send(request(path).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    Answer put(String path, String jsonBody) {
        return send(request(path).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(jsonBody)).build());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT).header("Accept", "application/json");
    }

    private Answer send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(response, json);
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted during " + request.method() + " " + request.uri(), e);
        }
    }

    /** A response with its body parsed as JSON on demand. */
    record Answer(HttpResponse<String> response, ObjectMapper json) {

        int status() {
            return response.statusCode();
        }

        String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        JsonNode body() {
            try {
                return json.readTree(response.body());
            } catch (IOException e) {
                throw new UncheckedIOException("Not JSON (" + status() + "): " + response.body(), e);
            }
        }

        @Override
        public String toString() {
            return status() + " " + response.headers().map() + " " + response.body();
        }
    }
}
