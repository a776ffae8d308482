package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** GET /price-list.csv: a static file no annotation can reach, limited per client by a route in application.yml. */
@SampleAppTest
class PriceListIT {

    @LocalServerPort
    int port;

    @Test
    void servesTheFileTenTimesAMinutePerClientThenAnswers429LikeAnAnnotatedEndpoint() {
        Http http = new Http(port);
        for (int i = 1; i <= 10; i++) {
            Http.Answer file = http.get("/price-list.csv", "text/csv");
            assertThat(file.status()).as("download %d: %s", i, file).isEqualTo(200);
            assertThat(file.response().body()).startsWith("sku,name,price");
            assertThat(file.header("RateLimit-Policy")).isEqualTo("\"price-list\";q=10;w=60");
            assertThat(file.header("RateLimit")).startsWith("\"price-list\";r=" + (10 - i) + ";t=");
        }

        Http.Answer refused = http.get("/price-list.csv", "text/csv");
        assertThat(refused.status()).as("%s", refused).isEqualTo(429);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(1L, 60L);
        JsonNode problem = refused.body();
        assertThat(problem.get("type").asText()).isEqualTo("urn:problem-type:guard:rate-limited");
        assertThat(problem.get("violated-policies").get(0).asText()).isEqualTo("price-list");
    }
}
