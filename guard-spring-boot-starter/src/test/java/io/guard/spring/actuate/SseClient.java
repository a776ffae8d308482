package io.guard.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads a server-sent-event stream like {@code curl -N} does, on its own thread, and hands each {@code data:}
 * payload to the test with a bounded wait, so a test that never gets its event fails instead of hanging.
 */
final class SseClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final HttpResponse<InputStream> response;
    private final Thread reader;

    SseClient(Http http, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(http.uri(path)).header("Accept", "text/event-stream").GET()
                .build();
        this.response = http.client().send(request, HttpResponse.BodyHandlers.ofInputStream());
        this.reader = new Thread(this::read, "sse-test-reader");
        this.reader.setDaemon(true);
        this.reader.start();
    }

    int status() {
        return response.statusCode();
    }

    String contentType() {
        return response.headers().firstValue("Content-Type").orElse("");
    }

    /** The next line starting with {@code prefix}, or fails after {@code timeout}. */
    String nextLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("No line starting with '" + prefix + "' within " + timeout);
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /** The next event's JSON payload, or fails after {@code timeout}. */
    JsonNode nextEvent(Duration timeout) throws Exception {
        return JSON.readTree(nextLine("data:", timeout).substring("data:".length()));
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
            }
        }
        catch (IOException ex) {
            // The test closed the stream.
        }
    }

    @Override
    public void close() throws IOException {
        response.body().close();
        reader.interrupt();
    }
}
