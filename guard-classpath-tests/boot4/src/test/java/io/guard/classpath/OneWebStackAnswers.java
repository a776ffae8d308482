package io.guard.classpath;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a user of one web stack sees over HTTP from a real server: a 429 (as JSON and for a browser), a 404 and the
 * application's own 500 all get an answer. Each subclass runs in a failsafe execution whose class path holds only its
 * stack (see this module's pom), which {@link #theOtherStackIsAbsent} proves, so a Guard class that reaches for the
 * other stack fails here as it would in the application.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OneWebStackAnswers {

    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(ANSWER_WITHIN).build();
    private ConfigurableApplicationContext context;
    private int port;

    /** The application: {@code GET /limited} is {@code @RateLimit(rate = 1, interval = "60s")}, {@code /failing} throws. */
    abstract Class<?> application();

    /** A class of the stack that must not be on this class path. */
    abstract String classOfTheOtherStack();

    @BeforeAll
    void start() {
        context = new SpringApplicationBuilder(application())
                .properties("server.port=0", "guard.rate-limit.backend=local")
                .run();
        // Both Boot lines publish the port here (WebServerApplicationContext moved package in Boot 4).
        port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    @AfterAll
    void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void theOtherStackIsAbsent() {
        assertThatThrownBy(() -> Class.forName(classOfTheOtherStack()))
                .as("the class path of this test run must not have %s", classOfTheOtherStack())
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void aRefusedCallIsAnswered429AsJsonAndToABrowser() throws Exception {
        assertThat(get("/limited", "application/json").statusCode()).isEqualTo(200);

        HttpResponse<String> json = get("/limited", "application/json");
        assertThat(json.statusCode()).isEqualTo(429);
        assertThat(json.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(json.body()).contains("urn:problem-type:guard:rate-limited");
        assertThat(json.headers().firstValue("Retry-After")).isPresent();

        HttpResponse<String> html = get("/limited", "text/html");
        assertThat(html.statusCode()).isEqualTo(429);
        assertThat(html.headers().firstValue("Retry-After")).isPresent();
    }

    @Test
    void anUnknownPathIsAnswered404() throws Exception {
        assertThat(get("/nope", "application/json").statusCode()).isEqualTo(404);
        assertThat(get("/nope", "text/html").statusCode()).isEqualTo(404);
    }

    @Test
    void theApplicationsOwnFailureIsAnswered500() throws Exception {
        assertThat(get("/failing", "application/json").statusCode()).isEqualTo(500);
        assertThat(get("/failing", "text/html").statusCode()).isEqualTo(500);
    }

    /** Throws (times out, or the connection closes) when the server gives no answer. */
    private HttpResponse<String> get(String path, String accept) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Accept", accept)
                .timeout(ANSWER_WITHIN)
                .GET()
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
