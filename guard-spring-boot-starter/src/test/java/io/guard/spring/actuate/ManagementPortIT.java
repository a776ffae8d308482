package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code management.server.port}, the dashboard, the {@code guard} endpoint and the live stream all move to the
 * management port together (the page reads the other two by relative URLs), and none of them stays on the
 * application's port.
 */
@GuardActuatorTest
@TestPropertySource(properties = { "management.server.port=0",
        "management.endpoints.web.exposure.include=health,guard,guardevents,guarddashboard" })
class ManagementPortIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @LocalServerPort
    int port;

    @Value("${local.management.port}")
    int managementPort;

    @Autowired
    CircuitBreakerRegistry breakers;

    @Test
    void theDashboardAndWhatItReadsAreServedOnTheManagementPort() throws Exception {
        assertThat(managementPort).isNotEqualTo(port);
        Http management = new Http(managementPort);

        Http.Response page = management.get("/actuator/guarddashboard");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.body()).contains("<title>Guard dashboard</title>", "guarddashboard/dashboard.js");
        Http.Response script = management.get("/actuator/guarddashboard/dashboard.js");
        assertThat(script.status()).isEqualTo(200);
        assertThat(script.contentType()).startsWith("text/javascript");
        assertThat(script.body()).contains("new EventSource('guardevents/stream')");
        Http.Response style = management.get("/actuator/guarddashboard/dashboard.css");
        assertThat(style.contentType()).startsWith("text/css");
        assertThat(management.get("/actuator/guarddashboard/application.yml").status()).isEqualTo(404);
        assertThat(management.get("/actuator/guard").status()).isEqualTo(200);

        try (SseClient sse = new SseClient(management, "/actuator/guardevents/stream?name=managed")) {
            assertThat(sse.status()).isEqualTo(200);
            sse.nextLine(":connected", WAIT);
            breakers.circuitBreaker("managed").transitionToForcedOpenState();
            assertThat(sse.nextEvent(WAIT).path("details").path("to").asText()).isEqualTo("FORCED_OPEN");
        }

        Http application = new Http(port);
        assertThat(application.get("/actuator/guarddashboard").status()).isEqualTo(404);
        assertThat(application.get("/actuator/guardevents/stream").status()).isEqualTo(404);
    }
}
