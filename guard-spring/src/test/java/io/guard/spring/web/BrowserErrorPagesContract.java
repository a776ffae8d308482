package io.guard.spring.web;

import org.junit.jupiter.api.Test;

import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Browsers get the application's error page for a refusal, as for its other errors, with Retry-After and the
 * RateLimit fields; API clients keep the problem detail. One body for both stacks: each subclass starts the same
 * application on its own (a rate-limited {@code /owners}, a {@code /login} throttled in a filter, a {@code /vets}
 * behind a breaker that opens after one failure, and static error pages with {@code error/429.html} only).
 */
abstract class BrowserErrorPagesContract {

    static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    /** The application's pages, one request at a time. */
    interface Pages {
        Exchange get(String path, String accept);
    }

    /** Runs {@code test} against a fresh application of this stack, started with {@code properties} added. */
    abstract void withApplication(Consumer<Pages> test, String... properties);

    /** How this stack's application answers the failure that opens the breaker of {@code /vets}. */
    abstract void assertFailureBeforeTheBreakerOpens(Exchange failure);

    @Test
    void aBrowserGetsTheApplicationsErrorPageFor429WithRetryAfterAndTheRateLimitFields() {
        withApplication(pages -> {
            assertThat(pages.get("/owners", BROWSER).status()).isEqualTo(200);
            Exchange refused = pages.get("/owners", BROWSER);
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.header("Content-Type")).startsWith("text/html");
            assertThat(refused.body()).contains("Too many requests - the application's own error page");
            assertThat(refused.header("Retry-After")).matches("59|60");
            assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"owner-search\";q=1;w=60");
            assertThat(refused.header("RateLimit")).matches("\"owner-search\";r=0;t=(59|60)");
        });
    }

    @Test
    void anApiClientStillGetsTheProblemDetail() {
        withApplication(pages -> {
            assertThat(pages.get("/owners", "application/json").status()).isEqualTo(200);
            Exchange refused = pages.get("/owners", "application/json");
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
            assertThat(refused.isProblem()).isTrue();
            assertThat(refused.json().path("type").asText()).isEqualTo("urn:problem-type:guard:rate-limited");
            assertThat(refused.json().path("detail").asText())
                    .isEqualTo("Rate limit 'owner-search' allows 1 requests per 60s.");
            assertThat(refused.header("Retry-After")).matches("59|60");
            assertThat(refused.header("RateLimit")).matches("\"owner-search\";r=0;t=(59|60)");
            for (String accept : new String[] {"*/*", "application/json;q=0.9, text/html;q=0.5"}) {
                Exchange another = pages.get("/owners", accept);
                assertThat(another.isProblem()).as(accept).isTrue();
                assertThat(another.body()).as(accept).contains("urn:problem-type:guard:rate-limited");
            }
        });
    }

    @Test
    void aRefusalInAFilterGetsTheErrorPageToo() {
        withApplication(pages -> {
            assertThat(pages.get("/login", BROWSER).body()).isEqualTo("welcome");
            Exchange refused = pages.get("/login", BROWSER);
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.body()).contains("Too many requests - the application's own error page");
            assertThat(refused.header("Retry-After")).matches("59|60");
            assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"login-attempts\";q=1;w=60");
        });
    }

    @Test
    void anOpenBreakerWithoutFallbackGivesABrowserTheWhitelabelPageWithTheDetail() {
        withApplication(pages -> {
            assertFailureBeforeTheBreakerOpens(pages.get("/vets", BROWSER));
            Exchange open = pages.get("/vets", BROWSER);
            assertThat(open.status()).isEqualTo(503);
            assertThat(open.header("Content-Type")).startsWith("text/html");
            assertThat(open.body()).contains("Whitelabel Error Page").contains("Service Unavailable")
                    .contains("is OPEN and admits no calls");
            assertThat(open.header("Retry-After")).matches("2[0-9]|30");
        }, "server.error.include-message=always", "spring.web.error.include-message=always");
    }
}
