package io.guard.spring.actuate;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET} and {@code DELETE /actuator/guard/{name}/quota?key=...} on the in-process backend, with write access
 * granted: reading spends nothing, a reset gives the key its quota back, bad requests name the culprit.
 */
@GuardOperatorTest
class GuardQuotaEndpointIT {

    @LocalServerPort
    int port;

    @Autowired
    LimitedService limited;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void readingAQuotaSpendsNothing() {
        limited.quota("reader");
        limited.quota("reader");

        Http.Response first = http.get("/actuator/guard/limit-quota/quota?key=reader");
        Http.Response second = http.get("/actuator/guard/limit-quota/quota?key=reader");

        assertThat(first.status()).isEqualTo(200);
        JsonNode quota = first.json();
        assertThat(quota.path("name").asText()).isEqualTo("limit-quota");
        assertThat(quota.path("key").asText()).isEqualTo("reader");
        assertThat(quota.path("limit").asLong()).isEqualTo(3);
        assertThat(quota.path("remaining").asLong()).isEqualTo(1);
        assertThat(quota.path("retryAfterMs").asLong()).isZero();
        assertThat(quota.path("resetAfterMs").asLong()).isPositive();
        assertThat(quota.path("debt").isNumber()).as("the debt, 0 for a limit without cost").isTrue();
        assertThat(quota.path("debt").asLong()).isZero();
        assertThat(second.json().path("remaining").asLong()).isEqualTo(1);
        assertThat(LimitedService.rejections(() -> limited.quota("reader"), 2)).as("one permit was left").isEqualTo(1);
    }

    @Test
    void aResetUnblocksTheKeyAndNoOther() {
        assertThat(LimitedService.rejections(() -> limited.quota("blocked"), 4)).isEqualTo(1);
        assertThat(LimitedService.rejections(() -> limited.quota("bystander"), 4)).isEqualTo(1);
        JsonNode blocked = http.get("/actuator/guard/limit-quota/quota?key=blocked").json();
        assertThat(blocked.path("remaining").asLong()).isZero();
        assertThat(blocked.path("retryAfterMs").asLong()).isPositive();

        Http.Response reset = http.delete("/actuator/guard/limit-quota/quota?key=blocked");

        assertThat(reset.status()).isEqualTo(200);
        assertThat(reset.json().path("remaining").asLong()).isEqualTo(3);
        assertThat(reset.json().path("resetAfterMs").asLong()).isZero();
        assertThat(LimitedService.rejections(() -> limited.quota("blocked"), 3)).isZero();
        assertThat(LimitedService.rejections(() -> limited.quota("bystander"), 1)).isEqualTo(1);
    }

    @Test
    void anUnknownLimiterIs404NamingIt() {
        Http.Response read = http.get("/actuator/guard/ghost/quota?key=u");
        Http.Response reset = http.delete("/actuator/guard/ghost/quota?key=u");

        assertThat(read.status()).isEqualTo(404);
        assertThat(read.json().path("error").asText()).startsWith("No rate limiter named 'ghost'");
        assertThat(reset.status()).isEqualTo(404);
    }

    @Test
    void aMissingOrBlankKeyIs400() {
        for (String query : new String[] {"", "?key=", "?key=%20"}) {
            Http.Response read = http.get("/actuator/guard/limit-quota/quota" + query);
            Http.Response reset = http.delete("/actuator/guard/limit-quota/quota" + query);

            assertThat(read.status()).as(query).isEqualTo(400);
            assertThat(read.json().path("error").asText()).startsWith("Missing 'key'");
            assertThat(reset.status()).as(query).isEqualTo(400);
        }
    }

    @Test
    void anotherPathUnderALimiterIs404() {
        Http.Response response = http.get("/actuator/guard/limit-quota/quotas?key=u");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.json().path("error").asText()).contains("/actuator/guard/limit-quota/quota?key=");
    }
}
