package io.guard.sample;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** The management views the README's tour shows. */
@SampleAppTest
class ActuatorIT {

    @LocalServerPort
    int port;

    @Test
    void showsHealthWithItsComponents() {
        Http.Answer health = new Http(port).get("/actuator/health");

        assertThat(health.status()).as("%s", health).isEqualTo(200);
        assertThat(health.body().get("status").asText()).isEqualTo("UP");
        assertThat(health.body().get("components").has("redis")).as("%s", health).isTrue();
    }

    @Test
    void exposesMetricsAndPrometheus() {
        Http http = new Http(port);

        assertThat(http.get("/actuator/metrics").status()).isEqualTo(200);
        Http.Answer prometheus = http.get("/actuator/prometheus", "text/plain");
        assertThat(prometheus.status()).isEqualTo(200);
        assertThat(prometheus.response().body()).contains("jvm_memory_used_bytes");
    }
}
